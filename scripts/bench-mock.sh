#!/usr/bin/env bash
# Load test of `apnsctl mock`: h2load -c 4 -m 100 with token auth, so every request goes through every
# check (path, headers, bearer token, topic, device token, body JSON). Usage: scripts/bench-mock.sh BINARY [REQUESTS]
# MOCK_FLAGS adds flags to the mock (e.g. --threads 1). Prints three lines: requests/s under h2load -c 4 -m 100
# (target 100000), and connections accepted per second (TLS handshake and one request each) from 4 parallel
# h2load threads opening 400 connections, and what 350 silent connections add to a new client's time.
set -euo pipefail

bin=${1:?usage: scripts/bench-mock.sh BINARY [REQUESTS]}
requests=${2:-200000}
command -v h2load >/dev/null || { echo "error: h2load is not installed (scripts/deps.sh installs nghttp2-client)" >&2; exit 1; }

state=$(mktemp -d "${TMPDIR:-/tmp}/apnsctl-bench-mock.XXXXXX")
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$state"; }
trap cleanup EXIT

"$bin" mock --port 0 --state-dir "$state" ${MOCK_FLAGS:-} >/dev/null 2>"$state/stderr" &
pid=$!
for _ in $(seq 200); do [ -s "$state/mock.json" ] && break; sleep 0.05; done
[ -s "$state/mock.json" ] || { echo "error: the mock did not start: $(cat "$state/stderr")" >&2; exit 1; }

field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" "$state/mock.json"; }
endpoint=$(field endpoint)
token=$("$bin" jwt --auth-key "$(field auth_key)" --key-id "$(field key_id)" --team-id "$(field team_id)")
printf '{"aps":{"alert":"bench"}}' >"$state/payload.json"
device=$(printf 'ab%.0s' $(seq 32))

out=$(h2load -n "$requests" -c 4 -m 100 -H "authorization: bearer $token" -H 'apns-topic: com.example.demo' \
      -H 'apns-push-type: alert' -d "$state/payload.json" "$endpoint/3/device/$device" 2>&1)
echo "$out" | grep -E '^(requests|status codes):' >&2
# A token connection allows one stream until its first good token (as APNs does). h2load sends its first
# -m requests before it reads that SETTINGS, so up to 99 per connection may be refused (RST_STREAM
# REFUSED_STREAM, safe to retry; h2load counts them as errored). Anything else is a failure.
errored=$(echo "$out" | sed -n 's/^requests: .* \([0-9]*\) errored.*/\1/p')
bad=$(echo "$out" | sed -n 's/^status codes: [0-9]* 2xx, \([0-9]*\) 3xx, \([0-9]*\) 4xx, \([0-9]*\) 5xx.*/\1 \2 \3/p')
if [ "$bad" != "0 0 0" ] || [ "${errored:-1}" -gt 396 ]; then echo "error: h2load saw failures" >&2; echo "$out" >&2; exit 1; fi
rate=$(echo "$out" | sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p')
echo "mock under h2load -c 4 -m 100: ${rate%.*} req/s, ratio $(awk -v r="$rate" 'BEGIN { printf "%.2f", r / 100000 }') of 100000 (target >= 1.0)"

# Accepting: 400 fresh connections from 4 threads, each a full TLS handshake and one request.
conns=400
out=$(h2load -n "$conns" -c "$conns" -t 4 -H "authorization: bearer $token" -H 'apns-topic: com.example.demo' \
      -H 'apns-push-type: alert' -d "$state/payload.json" "$endpoint/3/device/$device" 2>&1)
ok=$(echo "$out" | sed -n 's/^status codes: \([0-9]*\) 2xx.*/\1/p')
[ "${ok:-0}" -eq "$conns" ] || { echo "error: h2load's connections were not all answered" >&2; echo "$out" >&2; exit 1; }
secs=$(echo "$out" | sed -n 's/^finished in \([0-9.]*\)\(m\?s\),.*/\1 \2/p')
cps=$(echo "$secs" | awk -v n="$conns" '{ t = ($2 == "ms") ? $1 / 1000 : $1; printf "%d", n / t }')
echo "mock accepting, 4 clients handshaking in parallel: ${cps} connections/s (TLS handshake + 1 request each)"

# Silent connections: what 300 TCP connections without a handshake and 50 TLS ones without a request add to a
# new client's time (CLI.md: under 100 ms), as the median of 10 curls against 5 before them.
curl_time() {
    local out
    out=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --http2 --max-time 10 --cacert "$state/ca.pem" \
        --cert "$state/client.pem" -H 'apns-topic: com.example.demo' --data-binary '{"aps":{"alert":"bench"}}' \
        "$endpoint/3/device/$device")
    [ "${out%% *}" = 200 ] || { echo "error: a new client was not answered 200: $out" >&2; return 1; }
    echo "${out#* }"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
alone=$(for _ in 1 2 3 4 5; do curl_time; done | median)
port=${endpoint##*:}
python3 - "$port" "$state/ca.pem" "$state/held" <<'PY' &
import socket, ssl, sys, time
port, ca, flag = int(sys.argv[1]), sys.argv[2], sys.argv[3]
held = [socket.create_connection(("127.0.0.1", port)) for _ in range(300)]
context = ssl.create_default_context(cafile=ca)
context.check_hostname = False
context.set_alpn_protocols(["h2"])
for _ in range(50):
    held.append(context.wrap_socket(socket.create_connection(("127.0.0.1", port)), server_hostname="127.0.0.1"))
open(flag, "w").close()
time.sleep(120)
PY
holder=$!
for _ in $(seq 400); do [ -e "$state/held" ] && break; sleep 0.05; done
[ -e "$state/held" ] || { kill "$holder" 2>/dev/null; echo "error: the silent connections were not opened" >&2; exit 1; }
behind=$(for _ in $(seq 10); do curl_time; done | median)
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null || true
# A difference that rounds to 0 is +0, not -0.
awk -v a="$alone" -v b="$behind" 'BEGIN { d = (b - a) * 1000; if (d > -0.5 && d < 0.5) d = 0; printf "new client behind 350 silent connections: %+.0f ms (median %.0f ms, %.0f ms without them; target under +100 ms)\n", d, b * 1000, a * 1000 }'
