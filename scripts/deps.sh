#!/usr/bin/env bash
# Installs what the build, the demo and the tests use, and nothing that is already there.
# Debian/Ubuntu: apt-get (with sudo when not root). macOS: Homebrew. Usage: scripts/deps.sh [bench]
set -euo pipefail

want_bench=${1:-}
missing=()

need_pc() {  # pkg-config module -> apt package
    if ! pkg-config --exists "$1" 2>/dev/null; then missing+=("$2"); fi
}
need_cmd() {  # command -> apt package
    if ! command -v "$1" >/dev/null 2>&1; then missing+=("$2"); fi
}

command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
need_pc openssl libssl-dev
need_pc libnghttp2 libnghttp2-dev
need_cmd openssl openssl          # tests check that openssl reads what apnsctl writes, and the reverse
need_cmd curl curl                # tests prove the mock speaks real HTTP/2 to curl
need_cmd nghttpd nghttp2-server   # a second, independent HTTP/2 peer in the tests
need_cmd h2load nghttp2-client    # load generator for the mock test and make bench
need_proxy() {  # daemons in /usr/bin or /usr/sbin (not always on a user's PATH) -> apt package
    [ -x "/usr/bin/$1" ] || [ -x "/usr/sbin/$1" ] || command -v "$1" >/dev/null 2>&1 || missing+=("$2")
}
need_proxy tinyproxy tinyproxy    # a real HTTP CONNECT proxy for the send --proxy tests
need_proxy microsocks microsocks  # a real SOCKS5 server for the send --proxy tests
if [ "$want_bench" = bench ]; then
    need_cmd hyperfine hyperfine
    [ -x /usr/bin/time ] || missing+=(time)
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(uname -s)" = Darwin ]; then
    echo "deps: installing with Homebrew: openssl@3 libnghttp2 nghttp2 pkg-config tinyproxy microsocks" >&2
    exec brew install openssl@3 libnghttp2 nghttp2 pkg-config tinyproxy microsocks
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: missing ${missing[*]}; install them with your package manager" >&2
    exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
