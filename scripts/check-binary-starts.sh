#!/usr/bin/env bash
# Checks which tests started the built apnsctl in a test run against Tests/BinaryStartingTests.txt: the run's
# tests are recorded one id a line (apnsctlTests.Suite/test()/File.swift:LINE:COLUMN) in RECORD when
# APNSCTL_COUNT_BINARY_STARTS names it. Fails when a file not listed, or more tests of a file than listed, or
# more tests in all than the ceiling, started it. Usage: scripts/check-binary-starts.sh RECORD [LIST]
set -euo pipefail

record=${1:?usage: scripts/check-binary-starts.sh RECORD [LIST]}
list=${2:-Tests/BinaryStartingTests.txt}
[ -f "$record" ] || { echo "error: $record: no tests were recorded (was APNSCTL_COUNT_BINARY_STARTS set?)" >&2; exit 1; }

ceiling=$(sed -n 's/^ceiling \([0-9]*\)$/\1/p' "$list")
total=$(sort -u "$record" | wc -l)
status=0
while read -r count file; do
    allowed=$(awk -v f="$file" '$2 == f { print $1 }' "$list")
    if [ -z "$allowed" ]; then
        echo "error: $count test(s) of $file started the binary; it is not in $list" >&2
        status=1
    elif [ "$count" -gt "$allowed" ]; then
        echo "error: $count tests of $file started the binary; $list allows $allowed" >&2
        status=1
    fi
done < <(sort -u "$record" | sed -E 's#.*/([^/:]+\.swift):[0-9]+:[0-9]+$#\1#' | sort | uniq -c)
echo "tests that started the binary: $total (at most $ceiling; the target is 40)"
if [ "$total" -gt "$ceiling" ]; then
    echo "error: $total tests started the binary; $list allows $ceiling" >&2
    status=1
fi
exit $status
