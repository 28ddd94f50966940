#!/usr/bin/env bash
# make fuzz: fuzz each target of Fuzz/ in turn: the JSON reader and payload validator (seeded with Payloads/),
# the settings file's TOML reader (Fuzz/Seeds/toml) and the --devices token parser (Fuzz/Seeds/devices).
# Uses libFuzzer (swiftc -sanitize=fuzzer,address) when the toolchain has it, else the seeded random-mutation
# driver (Fuzz/Mutation). FUZZ_SECONDS (default 60) bounds each target's run; new corpus entries go to
# fuzz-corpus/TARGET/. `make test` runs the same targets for a fixed number of mutations (FuzzTargetTests).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
out=.build/fuzz
mkdir -p "$out"
core=$(find Sources/APNSCore -name '*.swift' | sort)
toml=$(find Sources/APNSSettings/TOML -name '*.swift' | sort)

# fuzz NAME DEFINE DICT SEED_GLOB SOURCES...: builds and runs one target.
fuzz() {
    local name=$1 define=$2 dict=$3 seeddir=$4
    shift 4
    local seeds
    seeds=$(find $seeddir -type f \( -name '*.json' -o -name '*.apns' -o -name '*.toml' -o -name '*.txt' \) | sort)
    mkdir -p "fuzz-corpus/$name"
    if swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name FuzzTarget $define \
            "$@" Fuzz/LibFuzzerEntry.swift -o "$out/$name-fuzzer" 2>"$out/$name-build.log"; then
        local copies="$out/$name-seeds"
        rm -rf "$copies"; mkdir -p "$copies"
        for f in $seeds; do cp "$f" "$copies/$(echo "$f" | tr / _)"; done
        echo "fuzz: $name: libFuzzer for ${seconds}s, seeded with $(echo "$seeds" | wc -l) files" >&2
        local status=0
        "$out/$name-fuzzer" -max_total_time="$seconds" -timeout=10 -max_len=16384 ${dict:+-dict=$dict} \
            -artifact_prefix="$out/$name-" -print_final_stats=1 "fuzz-corpus/$name" "$copies" >"$out/$name-last-run.log" 2>&1 || status=$?
        grep -E "^(Done|stat::number_of_executed_units|==[0-9]+==ERROR|.*fuzz invariant|SUMMARY|artifact_prefix|Test unit written)" \
            "$out/$name-last-run.log" >&2 || true
        [ "$status" -eq 0 ] && echo "fuzz: $name: no crash, no hang (log: $out/$name-last-run.log)" >&2
        return "$status"
    fi
    echo "fuzz: $name: libFuzzer unavailable ($(tail -1 "$out/$name-build.log")); using the mutation driver" >&2
    swiftc -O -module-name FuzzTarget $define "$@" Fuzz/LibFuzzerEntry.swift Fuzz/Mutator.swift Fuzz/Mutation/main.swift \
        -o "$out/$name-mutator"
    "$out/$name-mutator" "$seconds" $seeds
}

fuzz payload "" Fuzz/json.dict Payloads $core Fuzz/FuzzTarget.swift Fuzz/FuzzCheck.swift
fuzz toml "-D FUZZ_TOML" "" Fuzz/Seeds/toml $toml Fuzz/TOMLFuzzTarget.swift Fuzz/FuzzCheck.swift
fuzz devices "-D FUZZ_DEVICES" "" Fuzz/Seeds/devices $core Fuzz/DeviceLineFuzzTarget.swift Fuzz/FuzzCheck.swift
