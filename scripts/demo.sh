#!/usr/bin/env bash
# make demo: what apnsctl does, on the samples in Payloads/.
set -uo pipefail
bin=${1:-.build/debug/apnsctl}
cd "$(dirname "$0")/.."
echo "\$ apnsctl --version"
"$bin" --version
echo
echo "\$ apnsctl validate Payloads/*.json Payloads/*.apns"
"$bin" validate $(ls Payloads/*.json Payloads/*.apns | grep -vE '/(voip|liveactivity-[a-z]+|widgets|mdm)\.json$') || true
for type in voip liveactivity widgets mdm; do   # push types the payload alone does not reveal
    echo "\$ apnsctl validate --push-type $type Payloads/$type*.json"
    "$bin" validate --push-type "$type" Payloads/"$type"*.json || true
done
echo
echo "\$ apnsctl validate Payloads/invalid/badge-string.json Payloads/invalid/too-large-pretty.json"
"$bin" validate Payloads/invalid/badge-string.json Payloads/invalid/too-large-pretty.json || true
