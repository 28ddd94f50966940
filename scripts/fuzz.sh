#!/usr/bin/env bash
set -euo pipefail
echo "fuzz: not set up yet" >&2
exit 1
