#!/usr/bin/env bash
# make demo: what apnsctl does, on the samples in Payloads/.
set -uo pipefail
bin=${1:-.build/debug/apnsctl}
cd "$(dirname "$0")/.."
echo "\$ apnsctl --version"
"$bin" --version
echo
echo "\$ apnsctl validate Payloads/*.json Payloads/*.apns"
"$bin" validate Payloads/*.json Payloads/*.apns || true
