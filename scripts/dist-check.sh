#!/usr/bin/env bash
# make dist-check: checks what make dist and make deb wrote in dist/ for this version, as a user would meet it.
# Usage: scripts/dist-check.sh BIN   (BIN: the binary both were made from; it is packaged again to prove that
# packaging is reproducible). Each check prints "ok   NAME" or "FAIL NAME: why"; exit 1 when any failed.
# Never installs on the real system: the package goes into a temporary root (dpkg --root on an empty database).
set -uo pipefail

bin=${1:?usage: scripts/dist-check.sh BIN}
root_dir=$(cd "$(dirname "$0")/.." && pwd)
cd "$root_dir" || exit 1
version=$(scripts/version.sh) || exit 1
arch=$(uname -m)
debarch=$(dpkg --print-architecture)
name="apnsctl-$version-linux-$arch"
tarball="dist/$name.tar.gz"
deb="dist/apnsctl_${version}_$debarch.deb"
valid_sample=Payloads/alert.json
invalid_sample=Payloads/invalid/badge-string.json
# What the binary may load from the system: exactly what both READMEs name.
# libc's dynamic loader (ld-linux-x86-64.so.2, ld-linux-aarch64.so.1) is named by the program's interpreter.
loader=$(basename "$(readelf -l "$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')")
# libplist's and libzip's sonames differ between distributions (libplist-2.0.so.3 on Ubuntu 22.04, .so.4 later):
# the ones of the libraries this system builds against.
soname() { readelf -d "$(pkg-config --variable=libdir "$1")/$2" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }
plist_soname=$(soname libplist-2.0 libplist-2.0.so)
zip_soname=$(soname libzip libzip.so)
expected_needed=$(printf '%s\n' libc.so.6 libcrypto.so.3 libgcc_s.so.1 libm.so.6 libnghttp2.so.14 libsqlite3.so.0 libssl.so.3 'libstdc++.so.6' "$loader" \
    "$plist_soname" "$zip_soname" \
    | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')

tmp=$(mktemp -d "${TMPDIR:-/tmp}/apnsctl-dist-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
passes=0
ok() { echo "ok   $1"; passes=$((passes + 1)); }
failed() { echo "FAIL $1: $2"; failures=$((failures + 1)); }
check() {  # check LABEL COMMAND...: the command's success is the check's
    local label=$1; shift
    local output
    if output=$("$@" 2>&1); then ok "$label"; else failed "$label" "$(tail -5 <<<"$output")"; fi
}

# The binary run as a user without our environment would: empty HOME, a minimal PATH.
runs_in_clean_env() {  # runs_in_clean_env BIN
    local home="$tmp/home.$RANDOM" out status
    mkdir -p "$home"
    out=$(env -i PATH=/usr/bin:/bin HOME="$home" "$1" --version) || { echo "--version failed"; return 1; }
    [[ "$out" == "apnsctl $version ("* ]] || { echo "--version printed '$out', not apnsctl $version"; return 1; }
    env -i PATH=/usr/bin:/bin HOME="$home" "$1" validate "$valid_sample" >/dev/null 2>&1; status=$?
    [ $status -eq 0 ] || { echo "validate $valid_sample exited $status, not 0"; return 1; }
    env -i PATH=/usr/bin:/bin HOME="$home" "$1" validate "$invalid_sample" >/dev/null 2>&1; status=$?
    [ $status -eq 65 ] || { echo "validate $invalid_sample exited $status, not 65"; return 1; }
}

# --- the tarball -----------------------------------------------------------------------------------------
tarball_checksum_verifies() {
    [ -f "$tarball" ] && [ -f "$tarball.sha256" ] || { echo "$tarball or its .sha256 is missing"; return 1; }
    [ "$(awk '{print $2}' "$tarball.sha256")" = "$name.tar.gz" ] || { echo "the .sha256 does not name the tarball by its base name"; return 1; }
    (cd dist && sha256sum -c "$name.tar.gz.sha256")
}
tarball_layout() {
    local listing top extra p
    listing=$(tar -tzf "$tarball" | sed 's|/$||') || return 1
    top=$(cut -d/ -f1 <<<"$listing" | sort -u)
    [ "$top" = "$name" ] || { echo "top-level entries: $top (want one folder, $name)"; return 1; }
    for p in bin/apnsctl LICENSE README share/bash-completion/completions/apnsctl share/zsh/site-functions/_apnsctl \
             share/fish/vendor_completions.d/apnsctl.fish share/man/man1/apnsctl.1; do
        grep -qx "$name/$p" <<<"$listing" || { echo "missing $p"; return 1; }
    done
    for sub in send validate inspect convert jwt mock channel; do
        grep -qx "$name/share/man/man1/apnsctl.$sub.1" <<<"$listing" || { echo "missing the man page apnsctl.$sub.1"; return 1; }
    done
    extra=$(grep -v -x -E "$name(/bin|/bin/apnsctl|/LICENSE|/README|/share|/share/man|/share/man/man1|/share/man/man1/apnsctl(\.[a-z-]+)*\.1|/share/bash-completion|/share/bash-completion/completions|/share/bash-completion/completions/apnsctl|/share/zsh|/share/zsh/site-functions|/share/zsh/site-functions/_apnsctl|/share/fish|/share/fish/vendor_completions.d|/share/fish/vendor_completions.d/apnsctl.fish)?" <<<"$listing")
    [ -z "$extra" ] || { echo "unexpected entries: $extra"; return 1; }
}
tarball_entries_reproducible() {  # root-owned, sorted, all dated by the last commit
    local verbose epoch
    epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
    verbose=$(tar --numeric-owner --full-time -tvzf "$tarball") || return 1
    ! awk '{print $2}' <<<"$verbose" | grep -vqx '0/0' || { echo "entries not owned by 0/0"; return 1; }
    [ "$(tar -tzf "$tarball")" = "$(tar -tzf "$tarball" | LC_ALL=C sort)" ] || { echo "entries are not sorted"; return 1; }
    local want; want=$(TZ=UTC date -u -d "@$epoch" '+%Y-%m-%d %H:%M:%S')
    ! TZ=UTC tar --numeric-owner --full-time -tvzf "$tarball" | awk '{print $4" "$5}' | grep -vqx "$want" \
        || { echo "entries not dated $want"; return 1; }
    [ "$(od -An -tu4 -j4 -N4 "$tarball" | tr -d ' ')" = 0 ] || { echo "gzip header carries a time (not gzip -n)"; return 1; }
}
mkdir -p "$tmp/x"
tar -xzf "$tarball" -C "$tmp/x" 2>/dev/null
unpacked="$tmp/x/$name"
binary_stripped() {
    local what; what=$(file "$1") || return 1
    grep -q ', stripped' <<<"$what" || { echo "file says: $what"; return 1; }
}
binary_libraries() {  # exactly the system libraries the READMEs list; no RUNPATH but $ORIGIN
    local dynamic needed runpath
    dynamic=$(readelf -d "$1") || return 1
    needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dynamic" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
    [ "$needed" = "$expected_needed" ] || { echo "NEEDED: $needed; want exactly: $expected_needed"; return 1; }
    runpath=$(sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p' <<<"$dynamic")
    [ -z "$runpath" ] || [ "$runpath" = '$ORIGIN' ] || { echo "RUNPATH $runpath"; return 1; }
}
man_page_renders() {
    local text; text=$(MANWIDTH=80 man -P cat -l "$1" 2>&1) || { echo "$text"; return 1; }
    grep -q "apnsctl send" <<<"$text" || { echo "the page does not show 'apnsctl send'"; return 1; }
}
bash_completion_loads() {
    local out; out=$(env -i PATH=/usr/bin:/bin bash --norc --noprofile -c "source '$1' && complete -p apnsctl") || return 1
    grep -q 'apnsctl$' <<<"$out" || { echo "complete -p: $out"; return 1; }
}
readme_names_libraries() {
    grep -q 'libssl3' "$1" && grep -q 'libnghttp2-14' "$1" && grep -q 'libplist3' "$1" && grep -q 'libzip4' "$1" \
        && grep -q 'libsqlite3-0' "$1" && grep -q "sha256sum -c $name.tar.gz.sha256" "$1" \
        || { echo "$1 does not name libssl3, libnghttp2-14, libplist3, libzip4, libsqlite3-0 and the sha256sum -c line"; return 1; }
    cmp -s "$unpacked/LICENSE" LICENSE || { echo "LICENSE differs from the repository's"; return 1; }
}

check tarball-checksum-verifies tarball_checksum_verifies
check tarball-one-folder-layout tarball_layout
check tarball-root-owned-sorted-dated tarball_entries_reproducible
check tarball-binary-stripped binary_stripped "$unpacked/bin/apnsctl"
check tarball-binary-system-libraries-only binary_libraries "$unpacked/bin/apnsctl"
check tarball-binary-runs-clean-env runs_in_clean_env "$unpacked/bin/apnsctl"
check tarball-man-page-renders man_page_renders "$unpacked/share/man/man1/apnsctl.send.1"
check tarball-bash-completion-loads bash_completion_loads "$unpacked/share/bash-completion/completions/apnsctl"
check tarball-readme-and-license readme_names_libraries "$unpacked/README"

# --- the .deb ----------------------------------------------------------------------------------------------
deb_fields() {
    [ -f "$deb" ] || { echo "$deb is missing"; return 1; }
    [ "$(dpkg-deb -f "$deb" Package)" = apnsctl ] || { echo "Package: $(dpkg-deb -f "$deb" Package)"; return 1; }
    [ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || { echo "Version: $(dpkg-deb -f "$deb" Version), not $version"; return 1; }
    local depends; depends=$(dpkg-deb -f "$deb" Depends)
    grep -Eq '(^|, )libssl3(t64)? ' <<<"$depends" && grep -Eq '(^|, )libnghttp2-14 ' <<<"$depends" \
        && grep -Eq '(^|, )libplist(3|-2\.0-[0-9]+) ' <<<"$depends" && grep -Eq '(^|, )libzip[0-9]+(t64)? ' <<<"$depends" \
        && grep -Eq '(^|, )libsqlite3-0 ' <<<"$depends" \
        || { echo "Depends: $depends (want libssl3 or libssl3t64, libnghttp2-14, libplist, libzip and libsqlite3-0, with versions)"; return 1; }
}
deb_contents() {
    local listing p
    listing=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./||; s|/$||') || return 1
    for p in usr/bin/apnsctl usr/share/man/man1/apnsctl.1.gz usr/share/man/man1/apnsctl.send.1.gz \
             usr/share/bash-completion/completions/apnsctl usr/share/zsh/vendor-completions/_apnsctl \
             usr/share/fish/vendor_completions.d/apnsctl.fish usr/share/doc/apnsctl/copyright usr/share/doc/apnsctl/changelog.gz; do
        grep -qx "$p" <<<"$listing" || { echo "missing /$p"; return 1; }
    done
    ! grep -E '^usr/share/man/man1/.*\.1$' <<<"$listing" || { echo "uncompressed man pages"; return 1; }
    ! grep -q 'site-functions' <<<"$listing" || { echo "zsh completion outside vendor-completions"; return 1; }
    ! dpkg-deb -c "$deb" | awk '{print $2}' | grep -vqx 'root/root' || { echo "entries not owned by root"; return 1; }
    # Read whole before grep: `grep -q` leaving a pipe early kills the writer with SIGPIPE, which pipefail
    # reported as a failed check now and then.
    local copyright changelog
    copyright=$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/share/doc/apnsctl/copyright) || { echo "no readable copyright"; return 1; }
    grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' <<<"$copyright" \
        || { echo "copyright is not DEP-5"; return 1; }
    changelog=$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/share/doc/apnsctl/changelog.gz | gunzip | dpkg-parsechangelog -l- -SVersion) \
        || { echo "changelog.gz does not parse as a Debian changelog"; return 1; }
    grep -qx "$version" <<<"$changelog" || { echo "changelog.gz does not parse as a Debian changelog for $version"; return 1; }
}
deb_lintian_clean() {
    local out; out=$(lintian --fail-on none "$deb" 2>&1) || { echo "$out"; return 1; }
    ! grep '^E:' <<<"$out" || return 1
}
deb_binary() {
    mkdir -p "$tmp/debx" && dpkg-deb -x "$deb" "$tmp/debx" || return 1
    binary_stripped "$tmp/debx/usr/bin/apnsctl" && binary_libraries "$tmp/debx/usr/bin/apnsctl"
}
deb_installs_into_temporary_root() {  # dpkg --root on an empty database; never the real system's
    local root="$tmp/root" found left
    mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/log"
    : > "$root/var/lib/dpkg/status"; : > "$root/var/lib/dpkg/available"
    dpkg --root="$root" --log="$root/var/log/dpkg.log" --force-depends --force-not-root --path-include='*' -i "$deb" >/dev/null || return 1
    runs_in_clean_env "$root/usr/bin/apnsctl" || return 1
    found=$(man -M "$root/usr/share/man" -w apnsctl) || { echo "man -w found no page"; return 1; }
    [[ "$found" == "$root/usr/share/man/man1/apnsctl.1.gz" ]] || { echo "man -w: $found"; return 1; }
    dpkg --root="$root" --log="$root/var/log/dpkg.log" --force-not-root -r apnsctl >/dev/null || return 1
    left=$(find "$root/usr" ! -type d 2>/dev/null)
    [ -z "$left" ] || { echo "left behind: $left"; return 1; }
}
deb_depends_resolve() {
    apt-get -s install "./$deb"
}

check deb-control-fields deb_fields
check deb-contents deb_contents
check deb-lintian-no-errors deb_lintian_clean
check deb-binary-stripped-system-libraries deb_binary
check deb-install-run-remove-temporary-root deb_installs_into_temporary_root
check deb-depends-resolve-apt deb_depends_resolve

# --- packaging the same binary again gives the same bytes --------------------------------------------------
repackaged_identical() {  # into a folder that holds an older release's files, which must go
    mkdir -p "$tmp/again"
    touch "$tmp/again/apnsctl-0.0.1-linux-$arch.tar.gz" "$tmp/again/apnsctl-0.0.1-linux-$arch.tar.gz.sha256" \
        "$tmp/again/apnsctl_0.0.1_$debarch.deb"
    DIST_DIR="$tmp/again" scripts/package.sh tarball "$bin" 2>/dev/null || { echo "make dist again failed"; return 1; }
    DIST_DIR="$tmp/again" scripts/package.sh deb "$bin" 2>/dev/null || { echo "make deb again failed"; return 1; }
    local f
    for f in "$name.tar.gz" "$name.tar.gz.sha256" "apnsctl_${version}_$debarch.deb"; do
        [ "$(sha256sum < "dist/$f")" = "$(sha256sum < "$tmp/again/$f")" ] || { echo "$f differs when packaged again"; return 1; }
    done
    local held; held=$(ls -A "$tmp/again" | tr '\n' ' ')
    [ "$held" = "$name.tar.gz $name.tar.gz.sha256 apnsctl_${version}_$debarch.deb " ] \
        || { echo "dist/ holds $held, not only this version's three files"; return 1; }
}
check packaging-reproducible-only-this-version repackaged_identical

# The plain closing line CI reads: it follows swift test's in make test.
if [ $failures -gt 0 ]; then
    echo "dist-check: $failures check(s) failed" >&2
    echo "dist-check: $passes passed, $failures failed"
    exit 1
fi
echo "dist-check: all checks passed for $tarball and $deb" >&2
echo "dist-check: $passes passed, $failures failed"
