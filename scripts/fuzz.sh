#!/usr/bin/env bash
# make fuzz: fuzz the JSON reader and payload validator (Fuzz/FuzzTarget.swift), seeded with Payloads/.
# Uses libFuzzer (swiftc -sanitize=fuzzer,address) when the toolchain has it, else a seeded
# random-mutation driver. FUZZ_SECONDS (default 60) bounds the run; new corpus entries go to fuzz-corpus/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
out=.build/fuzz
mkdir -p "$out" fuzz-corpus
sources=$(find Sources/APNSCore -name '*.swift' | sort)
seeds=$(find Payloads -type f \( -name '*.json' -o -name '*.apns' \) | sort)

if swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name APNSCoreFuzz \
        $sources Fuzz/FuzzTarget.swift Fuzz/LibFuzzerEntry.swift -o "$out/payload-fuzzer" 2>"$out/build.log"; then
    seeddir="$out/seeds"
    rm -rf "$seeddir"; mkdir -p "$seeddir"
    for f in $seeds; do cp "$f" "$seeddir/$(echo "$f" | tr / _)"; done
    echo "fuzz: libFuzzer for ${seconds}s, seeded with $(echo "$seeds" | wc -l) payloads" >&2
    status=0
    "$out/payload-fuzzer" -max_total_time="$seconds" -timeout=10 -max_len=16384 -dict=Fuzz/json.dict \
        -artifact_prefix="$out/" -print_final_stats=1 fuzz-corpus "$seeddir" >"$out/last-run.log" 2>&1 || status=$?
    grep -E "^(Done|stat::number_of_executed_units|==[0-9]+==ERROR|fuzz invariant|SUMMARY|artifact_prefix|Test unit written)" \
        "$out/last-run.log" >&2 || true
    [ "$status" -eq 0 ] && echo "fuzz: no crash, no hang (log: $out/last-run.log)" >&2
    exit "$status"
fi

echo "fuzz: libFuzzer unavailable ($(tail -1 "$out/build.log")); using the mutation driver" >&2
swiftc -O -module-name APNSCoreFuzz $sources Fuzz/FuzzTarget.swift Fuzz/Mutation/main.swift -o "$out/payload-mutator"
"$out/payload-mutator" "$seconds" $seeds
