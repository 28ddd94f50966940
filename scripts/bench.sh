#!/usr/bin/env bash
# make bench: apnsctl measured against its anchors in one run, on this machine, as ratios.
#   validate: 1,000 payload files in one call (limit 0.5 s)
#   send:     one send vs curl --http2; 20,000 notifications on one connection vs h2load -c 1 -m 100,
#             and through tinyproxy vs direct;
#             peak memory of send --devices with 100,000 tokens
#   mock:     requests/s under h2load -c 4 -m 100; connections/s accepted from 4 parallel handshaking clients
# Medians throughout; this machine is shared and noisy, so compare ratios, not absolute times.
set -euo pipefail
bin=${1:-.build/release/apnsctl}
cd "$(dirname "$0")/.."
[ -x "$bin" ] || { echo "error: $bin is not built; run make bench" >&2; exit 1; }
echo "apnsctl bench — $("$bin" --version)"
echo "machine: $(nproc) cores, $(uname -sr)"
echo
status=0
for part in validate send mock; do
    script="scripts/bench-$part.sh"
    if [ -x "$script" ]; then
        "$script" "$bin" || status=1
    else
        echo "$part: not measured ($script missing)"
    fi
done
exit $status
