#!/usr/bin/env bash
# The one version: APNSCtlVersion.current in Sources/APNSCtlCommands/APNSCtl.swift (what `apnsctl --version` prints).
# Usage: scripts/version.sh                 prints it (the Makefile names files, the package and its changelog with it)
#        scripts/version.sh check-tag TAG   exits 1 with one error line unless TAG is "v" + the version (release workflow)
set -euo pipefail

source_file="$(cd "$(dirname "$0")/.." && pwd)/Sources/APNSCtlCommands/APNSCtl.swift"
version=$(sed -n 's/^ *static let current = "\([^"]*\)".*/\1/p' "$source_file")
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([.~+-][0-9A-Za-z.~+-]*)?$ ]]; then
    echo "error: no version found in $source_file (expected a line: static let current = \"1.2.3\" in enum APNSCtlVersion)" >&2
    exit 1
fi

case "${1:-}" in
"") echo "$version" ;;
check-tag)
    tag=${2:-}
    tag=${tag#refs/tags/}
    if [ "$tag" != "v$version" ]; then
        echo "error: tag '$tag' does not match APNSCtlVersion.current '$version' (Sources/APNSCtlCommands/APNSCtl.swift): tag v$version, or bump the constant and tag again" >&2
        exit 1
    fi
    echo "version $version matches tag $tag" >&2
    ;;
*) echo "usage: scripts/version.sh [check-tag TAG]" >&2; exit 64 ;;
esac
