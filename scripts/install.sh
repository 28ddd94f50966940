#!/usr/bin/env bash
# Installs or removes apnsctl, its bash/zsh/fish completions and its man pages under a prefix.
# Usage: scripts/install.sh install BIN PREFIX    (PREFIX already includes DESTDIR)
#        scripts/install.sh uninstall PREFIX
# The completions and the man pages are generated from the binary's own command definitions:
# `BIN --generate-completion-script SHELL`, and swift-argument-parser's generate-manual tool (the one
# behind `swift package plugin generate-manual`), built from the package's checkout, so it works offline.
# With SOURCE_DATE_EPOCH set (make dist, make deb), the man pages carry that day instead of today's.
set -euo pipefail

SWIFT=${SWIFT:-swift}
action=${1:-}

files() {  # every path install writes, relative to PREFIX (man pages are listed from the generator)
    echo bin/apnsctl
    echo share/bash-completion/completions/apnsctl
    echo share/zsh/site-functions/_apnsctl
    echo share/fish/vendor_completions.d/apnsctl.fish
}

case "$action" in
install)
    bin=$2 prefix=$3
    [ -x "$bin" ] || { echo "error: $bin: no such program; build it first (make release)" >&2; exit 66; }
    generator=${GENERATE_MANUAL:-}
    if [ -z "$generator" ]; then
        "$SWIFT" build --product generate-manual >&2
        generator="$("$SWIFT" build --show-bin-path)/generate-manual"
    fi
    pages=$(mktemp -d)
    trap 'rm -rf "$pages"' EXIT
    date_args=()
    if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then  # reproducible packages date the pages by the last commit
        day=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d 2>/dev/null || date -u -r "$SOURCE_DATE_EPOCH" +%Y-%m-%d)
        date_args=(--date "$day")
    fi
    "$generator" "$bin" --multi-page --output-directory "$pages" ${date_args[@]+"${date_args[@]}"} >/dev/null
    rm -f "$pages/apnsctl.help.1"   # the parser's help subcommand has nothing of its own to say

    install -d "$prefix/bin" "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" \
        "$prefix/share/fish/vendor_completions.d" "$prefix/share/man/man1"
    install -m 0755 "$bin" "$prefix/bin/apnsctl"
    "$bin" --generate-completion-script bash > "$prefix/share/bash-completion/completions/apnsctl"
    "$bin" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_apnsctl"
    "$bin" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/apnsctl.fish"
    for page in "$pages"/*.1; do
        # Help text paragraphs are separated by empty lines, which mdoc wants as .Pp. A subcommand's page names
        # itself `.Nm "apnsctl send"`, which whatis/lexgrog cannot parse (man -k misses it, lintian warns) and
        # which leaves the synopsis's bare .Nm as plain "apnsctl": NAME says apnsctl.send (the page's name,
        # what `man apnsctl.send` takes) and the synopsis says apnsctl\ send (what one types).
        awk '
            /^\.Sh / { section = $2 }
            section == "NAME" && /^\.Nm ".* .*"$/ {
                command = substr($0, 6, length($0) - 6)
                page = command; gsub(/ /, ".", page); print ".Nm " page
                gsub(/ /, "\\ ", command); next
            }
            /^\.Nm$/ && command != "" { print ".Nm " command; next }
            /^$/ { print ".Pp"; next }
            { print }
        ' "$page" > "$prefix/share/man/man1/$(basename "$page")"
        chmod 0644 "$prefix/share/man/man1/$(basename "$page")"
    done
    chmod 0644 "$prefix/share/bash-completion/completions/apnsctl" "$prefix/share/zsh/site-functions/_apnsctl" \
        "$prefix/share/fish/vendor_completions.d/apnsctl.fish"
    echo "installed apnsctl, completions and man pages under $prefix" >&2
    ;;
uninstall)
    prefix=$2
    for f in $(files); do rm -f "$prefix/$f"; done
    rm -f "$prefix/share/man/man1/apnsctl.1" "$prefix/share/man/man1"/apnsctl.*.1
    echo "removed apnsctl, its completions and man pages from $prefix" >&2
    ;;
*)
    echo "usage: scripts/install.sh install BIN PREFIX | uninstall PREFIX" >&2
    exit 64
    ;;
esac
