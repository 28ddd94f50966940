#!/usr/bin/env bash
# make bench: filled in as the measured features land.
set -euo pipefail
echo "bench: nothing measured yet"
