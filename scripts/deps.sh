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
need_pc libplist-2.0 libplist-dev  # property lists of app builds (inspect, --app)
need_pc libzip libzip-dev         # .ipa archives
need_pc sqlite3 libsqlite3-dev    # the send history
need_cmd openssl openssl          # tests check that openssl reads what apnsctl writes, and the reverse
need_cmd curl curl                # tests prove the mock speaks real HTTP/2 to curl
need_cmd nghttpd nghttp2-server   # a second, independent HTTP/2 peer in the tests
need_cmd h2load nghttp2-client    # load generator for the mock test and make bench
need_cmd python3 python3          # Tests/Scripts/pty-run.py: prompts, progress and colour on a pseudo-terminal
need_cmd jq jq                    # docs/sending.md reads a dry run's JSON with jq, and the doc examples run
need_cmd setpriv util-linux       # tests act as a second local user (root only): setpriv --reuid
need_py() {  # python module -> apt package (Debian's modules live under /usr/bin/python3, which a pyenv shim may hide)
    local py
    for py in /usr/bin/python3 python3; do
        if command -v "$py" >/dev/null 2>&1 && "$py" -c "import $1" 2>/dev/null; then return 0; fi
    done
    missing+=("$2")
}
# An APNs client this project did not write (h2 + ssl, PyJWT tokens as PyAPNs2 signs them) for interop tests.
need_py h2 python3-h2
need_py jwt python3-jwt
need_py cryptography python3-cryptography
# Every settings file the tests write is also parsed by Python's TOML reader: tomllib (3.11+), else tomli.
if ! { /usr/bin/python3 -c "import tomllib" 2>/dev/null || python3 -c "import tomllib" 2>/dev/null; }; then
    need_py tomli python3-tomli
fi
[ -x /usr/bin/time ] || missing+=(time)  # tests and make bench read peak memory with /usr/bin/time
need_proxy() {  # daemons in /usr/bin or /usr/sbin (not always on a user's PATH) -> apt package
    [ -x "/usr/bin/$1" ] || [ -x "/usr/sbin/$1" ] || command -v "$1" >/dev/null 2>&1 || missing+=("$2")
}
need_proxy tinyproxy tinyproxy    # a real HTTP CONNECT proxy for the send --proxy tests
need_proxy microsocks microsocks  # a real SOCKS5 server for the send --proxy tests
need_proxy nginx nginx-light      # a real HTTP/2 server in front of a late backend: the send delivery tests
need_cmd pgrep procps             # the nginx tests find its worker process
need_cmd strace strace            # a send with the system trust store must not open the whole bundle
need_cmd chattr e2fsprogs         # convert -o over an immutable file (as root): the reason it cannot be replaced
# make dist / make deb / make dist-check (Debian and Ubuntu only: they build and check a .deb and a Linux tarball)
if command -v dpkg >/dev/null 2>&1; then
    need_cmd dpkg-shlibdeps dpkg-dev  # computes the package's Depends from the binary
    need_cmd lintian lintian          # make deb fails on any lintian error
    need_cmd file file                # the check that the shipped binary is stripped
    need_cmd readelf binutils         # strip, and the check of the binary's NEEDED libraries and RUNPATH
    need_cmd man man-db               # the check that the shipped man pages render
    need_cmd ruby ruby                # ruby -c on the Homebrew formula
    need_py yaml python3-yaml         # the check that the workflow files parse
fi
if [ "$want_bench" = bench ]; then
    need_cmd hyperfine hyperfine
    need_cmd valgrind valgrind        # make bench: one send's instruction count (callgrind)
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(uname -s)" = Darwin ]; then
    # Homebrew's Python refuses `pip install --user` (PEP 668), so the test modules go into a virtual
    # environment; put its bin first on PATH (the macOS workflow does) so the tests' python3 is that one.
    venv=${APNSCTL_TEST_VENV:-.build/test-venv}
    echo "deps: installing with Homebrew: openssl@3 libnghttp2 libplist libzip sqlite nghttp2 pkgconf tinyproxy microsocks nginx; with pip into $venv: h2 pyjwt cryptography tomli" >&2
    brew install openssl@3 libnghttp2 libplist libzip sqlite nghttp2 pkgconf tinyproxy microsocks nginx jq
    python3 -m venv "$venv"
    "$venv/bin/python3" -m pip install --quiet h2 pyjwt cryptography tomli
    echo "deps: put $venv/bin first on PATH for the tests: export PATH=\"\$PWD/$venv/bin:\$PATH\"" >&2
    exit 0
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
