#!/usr/bin/env bash
# Packages a release binary for Linux (make dist, make deb). Usage:
#   scripts/package.sh tarball BIN   dist/apnsctl-VERSION-linux-ARCH.tar.gz and its .sha256
#   scripts/package.sh deb BIN       dist/apnsctl_VERSION_ARCH.deb, checked by lintian
#   scripts/package.sh preflight tarball|deb   stops with one error line where that cannot work (macOS, no dpkg)
# The staged files come from scripts/install.sh (the one list of what is installed). Reproducible: times come
# from SOURCE_DATE_EPOCH (default: the last commit), entries are sorted and owned by root, gzip -n; packaging
# the same binary twice gives byte-identical files. Everything is written under a temporary name in DIST_DIR
# and renamed only when complete (the .sha256 before its tarball); on success DIST_DIR keeps only this
# version's files. Environment: DIST_DIR (default dist), GENERATE_MANUAL and SWIFT as for install.sh.
set -euo pipefail

fail() { echo "error: $*" >&2; exit 1; }

action=${1:-}
bin=${2:-}
preflight_only=""
if [ "$action" = preflight ]; then  # only the platform and tool checks, before make builds anything
    preflight_only=yes action=$bin
fi
case "$action" in
tarball|deb) ;;
*) echo "usage: scripts/package.sh tarball|deb BIN | preflight tarball|deb" >&2; exit 64 ;;
esac

root_dir=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(uname -s)" != Linux ]; then
    fail "make dist and make deb package the Linux binary and need Linux; on macOS install with Homebrew (README.md, section Install) or with make install"
fi
if [ "$action" = deb ]; then
    for tool in dpkg-deb dpkg-shlibdeps lintian; do
        command -v "$tool" >/dev/null 2>&1 || fail "make deb needs $tool, which is missing: run make deps (Debian and Ubuntu), or use make dist for a tarball"
    done
fi
for tool in strip readelf objdump; do
    command -v "$tool" >/dev/null 2>&1 || fail "make $action needs $tool (binutils), which is missing: run make deps"
done
[ -z "$preflight_only" ] || exit 0
[ -n "$bin" ] && [ -x "$bin" ] || fail "$bin: no such program; build it first (make release)"

# The binary must run without the build machine's Swift: no libswift*/Foundation/dispatch shared library
# and no RUNPATH other than $ORIGIN (a debug build has both).
dynamic=$(readelf -d "$bin" 2>/dev/null) || fail "$bin: not an ELF program readelf can read; package the binary make release builds"
if grep -Eq 'NEEDED.*\[(libswift|libFoundation|libdispatch|libBlocksRuntime)' <<<"$dynamic"; then
    fail "$bin loads the Swift runtime as shared libraries; package the binary make release builds (--static-swift-stdlib)"
fi
runpath=$(sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p' <<<"$dynamic")
if [ -n "$runpath" ] && [ "$runpath" != '$ORIGIN' ]; then
    fail "$bin has the library search path $runpath, which points into the build machine; link it without (make release does)"
fi

version=$("$root_dir/scripts/version.sh")
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git -C "$root_dir" log -1 --format=%ct 2>/dev/null) \
        || fail "SOURCE_DATE_EPOCH is not set and $root_dir is not a git checkout; set it to the release's time (seconds since 1970)"
fi
export SOURCE_DATE_EPOCH
export TZ=UTC LC_ALL=C
umask 022

out=${DIST_DIR:-$root_dir/dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d "$out/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Gives every staged file and folder the release's time and ordinary permissions (umask-independent).
normalize() {
    find "$1" -type d -exec chmod 0755 {} +
    find "$1" -type f -exec chmod go-w,a+r {} +
    find "$1" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
}

# Keeps only this version's files in dist/ (an older release's tarball or .deb would be picked up by mistake).
prune_other_versions() {
    local f
    for f in "$out"/apnsctl-* "$out"/apnsctl_*; do
        [ -e "$f" ] || continue
        case "$(basename "$f")" in
        "apnsctl-$version-linux-"*|"apnsctl_${version}_"*) ;;
        *) rm -f "$f" ;;
        esac
    done
}

stage() {  # stage PREFIX: what make install PREFIX=... writes, with the binary stripped
    "$root_dir/scripts/install.sh" install "$bin" "$1" 2>"$work/install.err" \
        || { cat "$work/install.err" >&2; fail "staging with scripts/install.sh failed (above)"; }
    strip "$1/bin/apnsctl" || fail "strip $1/bin/apnsctl failed"
}

case "$action" in
tarball)
    arch=$(uname -m)
    name="apnsctl-$version-linux-$arch"
    tarball="$name.tar.gz"
    stage "$work/$name"
    cp "$root_dir/LICENSE" "$work/$name/LICENSE"
    built_on=$( (. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}") || true)
    built_glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null || echo glibc)
    # The oldest glibc that runs it: the newest GLIBC_ symbol version the binary asks for.
    glibc=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)
    [ -n "$glibc" ] || fail "objdump found no glibc symbol versions in $bin"
    sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/g" -e "s|@BUILT_ON@|${built_on:-Linux}, $built_glibc|" \
        -e "s/@GLIBC@/$glibc/" "$root_dir/packaging/README.tarball" > "$work/$name/README"
    normalize "$work/$name"
    (cd "$work" && tar --sort=name --owner=0 --group=0 --numeric-owner --format=gnu \
        --mtime="@$SOURCE_DATE_EPOCH" -cf - "$name") | gzip -9n > "$work/$tarball" \
        || fail "writing $tarball failed"
    (cd "$work" && sha256sum "$tarball" > "$tarball.sha256") || fail "writing $tarball.sha256 failed"
    mv -f "$work/$tarball.sha256" "$out/$tarball.sha256"
    mv -f "$work/$tarball" "$out/$tarball"
    prune_other_versions
    echo "wrote $out/$tarball and $tarball.sha256" >&2
    ;;
deb)
    arch=$(dpkg --print-architecture)
    deb="apnsctl_${version}_$arch.deb"
    pkg="$work/root"
    stage "$pkg/usr"
    # Debian's places: zsh's vendor folder, gzipped man pages, the copyright and changelog under doc/.
    mkdir -p "$pkg/usr/share/zsh/vendor-completions"
    mv "$pkg/usr/share/zsh/site-functions/_apnsctl" "$pkg/usr/share/zsh/vendor-completions/_apnsctl"
    rmdir "$pkg/usr/share/zsh/site-functions"
    gzip -9n "$pkg"/usr/share/man/man1/*.1
    doc="$pkg/usr/share/doc/apnsctl"
    mkdir -p "$doc"
    cp "$root_dir/packaging/debian/copyright" "$doc/copyright"
    {
        echo "apnsctl ($version) unstable; urgency=medium"
        echo
        echo "  * Release $version: send, validate, inspect, convert, jwt, mock and"
        echo "    channel; see /usr/share/doc/apnsctl/copyright for the license."
        echo
        echo " -- $(sed -n 's/^Maintainer: //p' "$root_dir/packaging/debian/control.in")  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
    } | gzip -9n > "$doc/changelog.gz"

    # Depends from the binary's shared libraries, as dpkg-shlibdeps sees them (it wants a debian/control).
    mkdir -p "$work/shlibdeps/debian"
    printf 'Source: apnsctl\n\nPackage: apnsctl\nArchitecture: any\n' > "$work/shlibdeps/debian/control"
    depends=$(cd "$work/shlibdeps" && dpkg-shlibdeps -O "$pkg/usr/bin/apnsctl" 2>"$work/shlibdeps.err") \
        || { cat "$work/shlibdeps.err" >&2; fail "dpkg-shlibdeps could not compute Depends for the binary (above)"; }
    depends=${depends#shlibs:Depends=}
    [ -n "$depends" ] || fail "dpkg-shlibdeps found no shared libraries in the binary"

    normalize "$pkg"
    mkdir -p "$pkg/DEBIAN"
    (cd "$pkg" && find usr -type f | sort | xargs md5sum) > "$pkg/DEBIAN/md5sums"
    size=$(find "$pkg/usr" -type f -printf '%s\n' | awk '{ k += int(($1 + 1023) / 1024) } END { print k }')
    sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
        "$root_dir/packaging/debian/control.in" > "$pkg/DEBIAN/control"
    chmod 0644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"
    chmod 0755 "$pkg/DEBIAN"
    touch -h -d "@$SOURCE_DATE_EPOCH" "$pkg/DEBIAN" "$pkg/DEBIAN"/*
    dpkg-deb --build --root-owner-group -Zxz "$pkg" "$work/$deb" >/dev/null || fail "dpkg-deb could not build $deb"

    lintian --fail-on none --tag-display-limit 0 "$work/$deb" > "$work/lintian.out" 2>&1 \
        || { cat "$work/lintian.out" >&2; fail "lintian could not check $deb (above)"; }
    if grep -q '^E:' "$work/lintian.out"; then
        grep '^E:' "$work/lintian.out" >&2
        fail "lintian found errors in $deb (above); nothing was written to $out"
    fi
    grep -v '^N:' "$work/lintian.out" >&2 || true
    mv -f "$work/$deb" "$out/$deb"
    prune_other_versions
    echo "wrote $out/$deb (Depends: $depends)" >&2
    ;;
esac
