#!/usr/bin/env bash
# Fills the Homebrew formula's url and sha256 (and, given OWNER/REPO, its homepage and head) for one source
# archive. Usage: scripts/formula.sh URL SHA256 [OWNER/REPO] < packaging/homebrew/apnsctl.rb > apnsctl.rb
set -euo pipefail
url=${1:?usage: scripts/formula.sh URL SHA256 [OWNER/REPO]}
sha=${2:?usage: scripts/formula.sh URL SHA256 [OWNER/REPO]}
repo=${3:-}
[[ "$sha" =~ ^[0-9a-f]{64}$ ]] || { echo "error: '$sha' is not a sha256 (64 hex digits)" >&2; exit 64; }
script=(-e "s|^  url \".*\"\$|  url \"$url\"|" -e "s|^  sha256 \".*\"\$|  sha256 \"$sha\"|")
[ -z "$repo" ] || script+=(-e "s|https://github.com/apnsctl/apnsctl|https://github.com/$repo|g")
sed "${script[@]}"
