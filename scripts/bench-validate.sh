#!/usr/bin/env bash
# Times `apnsctl validate` over 1,000 payload files in one call (the goal: under 500 ms, release build).
# Usage: scripts/bench-validate.sh [BINARY] [RUNS]   (default .build/release/apnsctl, 7 runs; prints the median)
set -euo pipefail
bin=${1:-.build/release/apnsctl}
runs=${2:-7}
root="$(cd "$(dirname "$0")/.." && pwd)"
[ -x "$bin" ] || { echo "error: $bin: no such binary; build it with: swift build -c release --static-swift-stdlib" >&2; exit 66; }
work=$(mktemp -d "${TMPDIR:-/tmp}/apnsctl-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# 1,000 files: the valid samples in turn, each made unique and a little larger with a custom key,
# plus one in ten with a problem, so the run exercises the error paths too.
samples=("$root"/Payloads/*.json)
for i in $(seq 1 1000); do
    src=${samples[$(( i % ${#samples[@]} ))]}
    case $(basename "$src") in voip.json|liveactivity-*|widgets.json|mdm.json) src="$root/Payloads/alert.json";; esac
    if [ $(( i % 10 )) -eq 0 ]; then
        printf '{\n  "aps": {\n    "alert": {"title": "Item %d", "body": "Body %d"},\n    "badge": "%d",\n    "sond": "default"\n  }\n}\n' "$i" "$i" "$i"
    else
        sed "s/^{/{\"bench-id\": $i, \"note\": \"payload number $i of the validate benchmark\",/" "$src"
    fi > "$work/p$i.json"
done

times=()
for _ in $(seq 1 "$runs"); do
    start=$(date +%s%N)
    status=0
    "$bin" validate "$work"/*.json > "$work/out.txt" || status=$?
    end=$(date +%s%N)
    [ "$status" -eq 65 ] || { echo "error: validate exited $status, expected 65 (one file in ten is invalid)" >&2; exit 70; }
    times+=($(( (end - start) / 1000000 )))
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
lines=$(wc -l < "$work/out.txt")
echo "validate 1000 files: $median ms (limit 500 ms), ratio $(awk -v m="$median" 'BEGIN { printf "%.2f", m / 500 }') (target <= 1.0)"
echo "bench: runs ${times[*]} ms; $lines output lines" >&2
[ "$median" -lt 500 ]
