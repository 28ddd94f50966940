#!/usr/bin/env bash
# apnsctl send against its anchors, each figure on one line with the anchor and the ratio:
#   1. one send, process start to exit, vs curl --http2 with the same credential, payload and server: with
#      --ca-file (certificate and token auth), with the system trust store, and in instructions (callgrind);
#      and a send whose settings come from a profile vs the same with flags;
#   2. 20,000 notifications over one connection vs h2load -c 1 -m 100 -n 20000 -i (same distinct paths, payload
#      and headers),
#      then the same batch through tinyproxy vs direct;
#   3. peak memory of send --devices with 100,000 tokens (must stay under 30 MB), and of 1,000,000 distinct
#      tokens from a pipe (under 100 MB);
#   4. 100,000 devices from a pipe vs a regular file (target <= 1.1);
#   5. 10,000 -d flags vs 1,000, both stopping at a bad last token (target <= 10);
#   6. the send history: one send recorded vs --no-history (target <= 2 ms or <= 1.10, whichever is larger),
#      and a 20,000-device batch recorded vs not, in alternating pairs (target <= 1.05).
# The server is `apnsctl mock` from the same binary. Usage: scripts/bench-send.sh [BINARY]
set -euo pipefail

bin=${1:-.build/release/apnsctl}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
runs=${BENCH_RUNS:-40}
for tool in curl h2load python3; do
    command -v "$tool" >/dev/null || { echo "error: $tool is missing; run make deps (scripts/deps.sh bench)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "error: /usr/bin/time is missing; install the time package" >&2; exit 1; }

work=$(mktemp -d)
mock_pid=""
cleanup() {
    [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null && wait "$mock_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

"$bin" mock --port 0 --state-dir "$work/state" >/dev/null 2>"$work/mock.err" &
mock_pid=$!
for _ in $(seq 100); do [ -s "$work/state/mock.json" ] && break; sleep 0.1; done
[ -s "$work/state/mock.json" ] || { echo "error: apnsctl mock did not start:" >&2; cat "$work/mock.err" >&2; exit 1; }
field() { python3 -c "import json,sys; print(json.load(open('$work/state/mock.json'))['$1'])"; }
endpoint=$(field endpoint); ca=$(field ca_file); cert=$(field cert); key=$(field auth_key)
keyid=$(field key_id); team=$(field team_id); topic=$(field bundle_id)
token=a1b2c3d4000000000000000000000000000000000000000000000000e5f6a7b8
payload='{"aps":{"alert":"Hello from the benchmark"}}'
printf '%s' "$payload" > "$work/payload.json"
export XDG_CACHE_HOME="$work/cache"
# Every send records into the history (section 6 measures what that costs): here, not the user's.
export XDG_STATE_HOME="$work/state-home"

ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }

# 1. One send, process start to exit: interleaved runs, medians.
apns_cmd=("$bin" send "$work/payload.json" --cert "$cert" --ca-file "$ca" --endpoint "$endpoint" --topic "$topic" -d "$token")
curl_cmd=(curl -s -o /dev/null --fail --http2 --cert "$cert" --cacert "$ca" -H "apns-topic: $topic"
          -H "apns-push-type: alert" -H "apns-priority: 10" --data-binary "@$work/payload.json" "$endpoint/3/device/$token")
"${apns_cmd[@]}" >/dev/null || { echo "error: apnsctl send failed against the mock" >&2; exit 1; }
"${curl_cmd[@]}" || { echo "error: curl failed against the mock" >&2; exit 1; }
# Medians of interleaved runs of two commands (after 3 warm-up pairs): pair_medians RUNS N CMD_A... CMD_B...
cat > "$work/pair.py" <<'EOF'
import subprocess, sys, time, statistics
runs, n = int(sys.argv[1]), int(sys.argv[2])
a, c = sys.argv[3:3 + n], sys.argv[3 + n:]
ta, tc = [], []
for i in range(runs + 3):
    for cmd, out in ((a, ta), (c, tc)) if i % 2 == 0 else ((c, tc), (a, ta)):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        if i >= 3: out.append((time.perf_counter() - t) * 1000)
print(f"{statistics.median(ta):.1f} {statistics.median(tc):.1f}")
EOF
python3 "$work/pair.py" "$runs" "${#apns_cmd[@]}" "${apns_cmd[@]}" "${curl_cmd[@]}" > "$work/one.txt"
read -r one_apns one_curl < "$work/one.txt"
echo "one send, --ca-file, certificate auth (start to exit, median of $runs): apnsctl ${one_apns} ms, curl --http2 --cacert ${one_curl} ms, ratio $(ratio "$one_apns" "$one_curl") (target <= 1.10)"

# 1'. The same send with --no-history against the same curl run: the line above less what recording the send
#     costs (section 6 measures that alone), so the two shares are seen apart. No target of its own.
nohist_cmd=("${apns_cmd[@]}" --no-history)
python3 "$work/pair.py" "$runs" "${#nohist_cmd[@]}" "${nohist_cmd[@]}" "${curl_cmd[@]}" > "$work/one-nohist.txt"
read -r nh_apns nh_curl < "$work/one-nohist.txt"
echo "one send, --ca-file, certificate auth, --no-history (median of $runs): apnsctl ${nh_apns} ms, curl --http2 --cacert ${nh_curl} ms, ratio $(ratio "$nh_apns" "$nh_curl") (no target; the history apart from the line above)"

# 1a. The same with token auth: apnsctl signs (then caches) its token; curl is handed one made beforehand,
#     so the anchor does strictly less work. Warm-up runs in pair.py fill apnsctl's token cache.
jwt_one=$("$bin" jwt --auth-key "$key" --key-id "$keyid" --team-id "$team")
tok_cmd=("$bin" send "$work/payload.json" --auth-key "$key" --key-id "$keyid" --team-id "$team" --ca-file "$ca"
         --endpoint "$endpoint" --topic "$topic" -d "$token")
tok_curl=(curl -s -o /dev/null --fail --http2 --cacert "$ca" -H "authorization: bearer $jwt_one" -H "apns-topic: $topic"
          -H "apns-push-type: alert" -H "apns-priority: 10" --data-binary "@$work/payload.json" "$endpoint/3/device/$token")
python3 "$work/pair.py" "$runs" "${#tok_cmd[@]}" "${tok_cmd[@]}" "${tok_curl[@]}" > "$work/one-token.txt"
read -r tok_apns tok_curl_ms < "$work/one-token.txt"
echo "one send, --ca-file, token auth (median of $runs): apnsctl ${tok_apns} ms, curl --http2 --cacert ${tok_curl_ms} ms, ratio $(ratio "$tok_apns" "$tok_curl_ms") (target <= 1.10)"

# 1b. Settings from a profile (a file of 5 profiles and 50 device names, the device by name) against the same
#     send with flags and no settings file (the target: reading and resolving the file costs <= 5 %).
#     Both run through env, so each side pays the same extra exec.
mkdir -p "$work/config/apnsctl" "$work/no-config"
{
    for p in 1 2 3 4; do
        printf '[profiles.other-%s]\nendpoint = "https://127.0.0.1:%s"\ncert = "%s"\ntopic = "com.example.other%s"\nenv = "production"\n\n' \
            "$p" "$((9000 + p))" "$cert" "$p"
    done
    printf '[profiles.bench]\nendpoint = "%s"\nca-file = "%s"\ncert = "%s"\ntopic = "%s"\n\n[devices]\n' "$endpoint" "$ca" "$cert" "$topic"
    for d in $(seq -w 1 50); do printf 'device-%s = "%s%s"\n' "$d" "${token:0:62}" "$d"; done
} > "$work/config/apnsctl/config.toml"
chmod 600 "$work/config/apnsctl/config.toml"
named_token="${token:0:62}17"
prof_cmd=(env "XDG_CONFIG_HOME=$work/config" "$bin" send "$work/payload.json" -p bench -d device-17)
flag_cmd=(env "XDG_CONFIG_HOME=$work/no-config" "$bin" send "$work/payload.json" --cert "$cert" --ca-file "$ca"
          --endpoint "$endpoint" --topic "$topic" -d "$named_token")
"${prof_cmd[@]}" >/dev/null || { echo "error: apnsctl send -p bench failed against the mock" >&2; exit 1; }
python3 "$work/pair.py" "$runs" "${#prof_cmd[@]}" "${prof_cmd[@]}" "${flag_cmd[@]}" > "$work/one-profile.txt"
read -r prof_ms flag_ms < "$work/one-profile.txt"
echo "one send, settings from -p (5 profiles, 50 device names) (median of $runs): apnsctl ${prof_ms} ms, the same with flags ${flag_ms} ms, ratio $(ratio "$prof_ms" "$flag_ms") (target <= 1.05)"

# 1c. Instructions of one certificate-auth --ca-file send, process start to exit, under callgrind: the
#     figure that does not move with the machine's load.
if command -v valgrind >/dev/null; then
    instructions() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*refs: *//p' | tr -d ,; }
    i_apns=$(instructions "${apns_cmd[@]}"); i_curl=$(instructions "${curl_cmd[@]}")
    python3 -c "print(f'one send, instructions (callgrind): apnsctl {$i_apns/1e6:.1f} M, curl --http2 {$i_curl/1e6:.1f} M, ratio {$i_apns/$i_curl:.2f}')"
    # 1d. What swift-argument-parser costs of that send: the instructions inside its parse (`parseAsRoot`,
    #     which also runs the options' conversions) and inside reading the setting flags out of the parsed
    #     command, against the whole send. No target: shown so a change to the command line's cost is seen.
    within() { valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$1" "${@:2}" 2>&1 >/dev/null | sed -n 's/.*refs: *//p' | tr -d ,; }
    i_parse=$(within '*parseAsRoot*' "${apns_cmd[@]}"); i_fill=$(within '*SettingFlags*commandLine*' "${apns_cmd[@]}")
    python3 -c "print(f'one send, argument parser (callgrind): {$i_parse/1e6:.1f} M of {$i_apns/1e6:.1f} M ({100*$i_parse/$i_apns:.0f} %), setting flags read from the parsed command {$i_fill/1e6:.2f} M')"
else
    echo "one send, instructions: not measured (valgrind is missing; scripts/deps.sh bench installs it)"
fi

# 1b. One send as users run it: no CA flag, the system trust store. The mock's CA is added to a copy of the
#     system store (hashed names and bundle) mounted over /etc/ssl/certs in a private mount namespace, so
#     apnsctl and curl trust it exactly as they would trust Apple's root; SSL_CERT_FILE and SSL_CERT_DIR are
#     unset for both, as on most users' machines. Token and certificate auth.
store="$work/system-certs"
mkdir -p "$store"
cp -a /etc/ssl/certs/. "$store/" 2>/dev/null || true
cp "$ca" "$store/apnsctl-bench-mock-ca.pem"
[ -f "$store/ca-certificates.crt" ] && cat "$ca" >> "$store/ca-certificates.crt"
openssl rehash "$store" >/dev/null 2>&1 || true
namespace=""
if unshare -m true 2>/dev/null; then namespace="unshare -m"; elif unshare -rm true 2>/dev/null; then namespace="unshare -rm"; fi
if [ -z "$namespace" ]; then
    echo "one send, system trust store: not measured (no private mount namespace here: unshare -m and unshare -rm both refused)"
else
    jwt_sys=$("$bin" jwt --auth-key "$key" --key-id "$keyid" --team-id "$team")
    for auth in token certificate; do
        if [ "$auth" = token ]; then
            a_sys=("$bin" send "$work/payload.json" --auth-key "$key" --key-id "$keyid" --team-id "$team" --topic "$topic"
                   --endpoint "$endpoint" -d "$token")
            c_sys=(curl -s -o /dev/null --fail --http2 -H "authorization: bearer $jwt_sys" -H "apns-topic: $topic"
                   -H "apns-push-type: alert" -H "apns-priority: 10" --data-binary "@$work/payload.json" "$endpoint/3/device/$token")
        else
            a_sys=("$bin" send "$work/payload.json" --cert "$cert" --endpoint "$endpoint" --topic "$topic" -d "$token")
            c_sys=(curl -s -o /dev/null --fail --http2 --cert "$cert" -H "apns-topic: $topic"
                   -H "apns-push-type: alert" -H "apns-priority: 10" --data-binary "@$work/payload.json" "$endpoint/3/device/$token")
        fi
        if $namespace sh -c 'mount --bind "$0" /etc/ssl/certs && exec env -u SSL_CERT_FILE -u SSL_CERT_DIR python3 "$@"' \
                "$store" "$work/pair.py" "$runs" "${#a_sys[@]}" "${a_sys[@]}" "${c_sys[@]}" > "$work/sys-$auth.txt" 2> "$work/sys-$auth.err"; then
            read -r s_apns s_curl < "$work/sys-$auth.txt"
            echo "one send, system trust store, $auth auth (median of $runs): apnsctl ${s_apns} ms, curl --http2 ${s_curl} ms, ratio $(ratio "$s_apns" "$s_curl") (target <= 0.5)"
        else
            echo "one send, system trust store, $auth auth: not measured ($(tail -1 "$work/sys-$auth.err"))"
        fi
    done
fi

# 2. 20,000 notifications over one connection, token auth for both (h2load sends no client certificate).
jwt=$("$bin" jwt --auth-key "$key" --key-id "$keyid" --team-id "$team")
python3 -c "
import sys
with open('$work/20k.txt','w') as f:
    for i in range(20000): f.write('ab%062x\n' % i)
"
# The anchor sends to the same 20,000 distinct paths (-i), as apnsctl does: one path repeated would be
# indexed by HPACK after its first request and spare h2load work apnsctl cannot skip. Five interleaved runs
# of each, medians (this machine is shared: a best-of hides the spread a user sees).
sed "s|^|$endpoint/3/device/|" "$work/20k.txt" > "$work/20k-uris.txt"
median() { python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
best() { python3 -c "import sys; print(min(float(x) for x in sys.argv[1:]))" "$@"; }
batch_runs=${BENCH_BATCH_RUNS:-5}
apns_times=(); h2_times=()
for _ in $(seq "$batch_runs"); do
    s=$(date +%s.%N)
    "$bin" send "$work/payload.json" --auth-key "$key" --key-id "$keyid" --team-id "$team" --topic "$topic" \
        --ca-file "$ca" --endpoint "$endpoint" --devices "$work/20k.txt" -o json > "$work/20k.out"
    e=$(date +%s.%N)
    apns_times+=("$(python3 -c "print(($e-$s)*1000)")")
    [ "$(grep -c '"status":200' "$work/20k.out")" = 20000 ] || { echo "error: not every notification was accepted" >&2; exit 1; }
    s=$(date +%s.%N)
    h2load -c 1 -m 100 -n 20000 -i "$work/20k-uris.txt" -d "$work/payload.json" -H "authorization: bearer $jwt" \
        -H "apns-topic: $topic" -H "apns-push-type: alert" -H "apns-priority: 10" -H "content-type: application/json" \
        > "$work/h2load.out"
    e=$(date +%s.%N)
    # h2load opens 100 streams before it reads SETTINGS; a token connection allows 1 until its first good
    # token (APNS.md §1), so up to 99 are refused at once and not retried. They cost h2load nothing, which
    # makes the anchor, if anything, a little faster than the work apnsctl does.
    ok=$(sed -n 's/.* \([0-9]*\) succeeded.*/\1/p' "$work/h2load.out")
    [ "${ok:-0}" -ge 19900 ] || { echo "error: h2load did not succeed:" >&2; cat "$work/h2load.out" >&2; exit 1; }
    h2_times+=("$(python3 -c "print(($e-$s)*1000)")")
done
b_apns=$(median "${apns_times[@]}"); b_h2=$(median "${h2_times[@]}")
printf '20,000 over one connection, token auth (median of %s): apnsctl %.0f ms, h2load -c 1 -m 100 -i (distinct paths) %.0f ms, ratio %s (target <= 1.0)\n' \
    "$batch_runs" "$b_apns" "$b_h2" "$(ratio "$b_apns" "$b_h2")"

# 2b. The same batch with certificate auth (h2load cannot present a client certificate, so the anchor
#     stays the token-auth h2load run: the ratio also shows what the client certificate costs).
# The certificate-auth batch with extra flags ($@), $batch_runs times; prints the median in ms.
cert_batch_best() {
    local times=() s e
    for _ in $(seq "$batch_runs"); do
        s=$(date +%s.%N)
        "$bin" send "$work/payload.json" --cert "$cert" --ca-file "$ca" --endpoint "$endpoint" --topic "$topic" \
            --devices "$work/20k.txt" -o json "$@" > "$work/20k-cert.out"
        e=$(date +%s.%N)
        times+=("$(python3 -c "print(($e-$s)*1000)")")
        [ "$(grep -c '"status":200' "$work/20k-cert.out")" = 20000 ] || { echo "error: not every notification was accepted (certificate auth $*)" >&2; exit 1; }
    done
    median "${times[@]}"
}
b_cert=$(cert_batch_best)
printf '20,000 over one connection, certificate auth (median of %s): apnsctl %.0f ms, vs the h2load run above ratio %s (target <= 1.3)\n' \
    "$batch_runs" "$b_cert" "$(ratio "$b_cert" "$b_h2")"

# 2c. The same batch through tinyproxy (HTTP CONNECT), against the direct certificate-auth run above.
tp=$(command -v tinyproxy || echo /usr/sbin/tinyproxy)
[ -x "$tp" ] || { echo "error: tinyproxy is missing; run make deps" >&2; exit 1; }
tp_port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
printf 'Port %s\nListen 127.0.0.1\nTimeout 600\nLogLevel Error\nAllow 127.0.0.1\nConnectPort %s\n' "$tp_port" "${endpoint##*:}" > "$work/tinyproxy.conf"
"$tp" -d -c "$work/tinyproxy.conf" >/dev/null 2>&1 &
tp_pid=$!
trap 'kill "$tp_pid" 2>/dev/null; cleanup' EXIT
for _ in $(seq 50); do (echo > "/dev/tcp/127.0.0.1/$tp_port") 2>/dev/null && break; sleep 0.1; done
b_proxy=$(cert_batch_best --proxy "http://127.0.0.1:$tp_port")
printf '20,000 through tinyproxy, certificate auth (median of %s): apnsctl %.0f ms, vs direct above ratio %s (target <= 1.5)\n' \
    "$batch_runs" "$b_proxy" "$(ratio "$b_proxy" "$b_cert")"

# 2d. GOAWAY every 1,000 requests (as nginx and APNs do): 10,000 notifications against a mock that sends it,
#     against the same batch without GOAWAYs; on loopback, then through a relay that delays each direction
#     by 25 ms, where a connection that waited for the old one to drain would cost a round trip each time.
"$bin" mock --port 0 --state-dir "$work/state-goaway" --fault-goaway-after 1000 >/dev/null 2>"$work/mock-goaway.err" &
goaway_pid=$!
# The relays start inside $(relay …), a subshell, so their pids go through a file the trap reads.
trap 'kill "$tp_pid" "$goaway_pid" $(cat "$work/relay.pids" 2>/dev/null) 2>/dev/null; cleanup' EXIT
for _ in $(seq 100); do [ -s "$work/state-goaway/mock.json" ] && break; sleep 0.1; done
goaway_endpoint=$(python3 -c "import json; print(json.load(open('$work/state-goaway/mock.json'))['endpoint'])")
goaway_ca=$(python3 -c "import json; print(json.load(open('$work/state-goaway/mock.json'))['ca_file'])")
goaway_cert=$(python3 -c "import json; print(json.load(open('$work/state-goaway/mock.json'))['cert'])")
head -n 10000 "$work/20k.txt" > "$work/10k.txt"
relay() {  # upstream port -> prints the relay's port
    local port
    port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
    python3 scripts/delay-relay.py "$port" "$1" 25 > "$work/relay-$port.out" 2>&1 &
    echo "$!" >> "$work/relay.pids"
    for _ in $(seq 50); do grep -q ready "$work/relay-$port.out" 2>/dev/null && break; sleep 0.1; done
    echo "$port"
}
median_batch() {  # endpoint ca cert -> median ms of 3 runs of 10,000
    local times=() s e
    for _ in 1 2 3; do
        s=$(date +%s.%N)
        "$bin" send "$work/payload.json" --cert "$3" --ca-file "$2" --endpoint "$1" --topic "$topic" \
            --devices "$work/10k.txt" -o json > "$work/10k.out"
        e=$(date +%s.%N)
        [ "$(grep -c '"status":200' "$work/10k.out")" = 10000 ] || { echo "error: not every notification was accepted ($1)" >&2; exit 1; }
        times+=("$(python3 -c "print(($e-$s)*1000)")")
    done
    python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))" "${times[@]}"
}
plain=$(median_batch "$endpoint" "$ca" "$cert")
goaway=$(median_batch "$goaway_endpoint" "$goaway_ca" "$goaway_cert")
printf '10,000 with GOAWAY every 1,000 (median of 3): apnsctl %.0f ms, without GOAWAY %.0f ms, ratio %s (target <= 1.2)\n' \
    "$goaway" "$plain" "$(ratio "$goaway" "$plain")"
plain_far=$(median_batch "https://127.0.0.1:$(relay "${endpoint##*:}")" "$ca" "$cert")
goaway_far=$(median_batch "https://127.0.0.1:$(relay "${goaway_endpoint##*:}")" "$goaway_ca" "$goaway_cert")
printf '10,000 with GOAWAY every 1,000 at 50 ms round trip (median of 3): apnsctl %.0f ms, without GOAWAY %.0f ms, ratio %s (target <= 1.2)\n' \
    "$goaway_far" "$plain_far" "$(ratio "$goaway_far" "$plain_far")"

# 3. Peak memory with 100,000 tokens streamed from a file.
python3 -c "
with open('$work/100k.txt','w') as f:
    for i in range(100000): f.write('cd%062x\n' % i)
"
/usr/bin/time -v "$bin" send "$work/payload.json" --cert "$cert" --ca-file "$ca" --endpoint "$endpoint" --topic "$topic" \
    --devices "$work/100k.txt" -o json > "$work/100k.out" 2> "$work/time.txt"
rss=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$work/time.txt")
lines=$(wc -l < "$work/100k.out")
printf 'peak memory, send --devices with 100,000 tokens: %.1f MB max RSS (%s results), limit 30 MB, ratio %s\n' \
    "$(python3 -c "print($rss/1024)")" "$lines" "$(python3 -c "print(f'{$rss/1024/30:.2f}')")"

# 3b. Peak memory with 1,000,000 distinct tokens from a pipe: the set of tokens seen (to send each once) is the
#     only thing that grows with the list, about 32 bytes a token (limit 100 MB).
python3 -c "
import sys
for i in range(1000000): sys.stdout.write('ab%062x\\n' % i)
" | /usr/bin/time -v "$bin" send "$work/payload.json" --cert "$cert" --ca-file "$ca" --endpoint "$endpoint" \
    --topic "$topic" --devices - -o json 2> "$work/time-1m.txt" | wc -l > "$work/1m.count"
rss=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$work/time-1m.txt")
printf 'peak memory, send --devices - with 1,000,000 distinct tokens from a pipe: %.1f MB max RSS (%s results), limit 100 MB, ratio %s\n' \
    "$(python3 -c "print($rss/1024)")" "$(tr -d ' ' < "$work/1m.count")" "$(python3 -c "print(f'{$rss/1024/100:.2f}')")"

# 4. 100,000 devices from a pipe (streamed, checked line by line) against the same list as a regular file
#    (checked whole first, then read again): the pipe must cost no more than the file (target <= 1.1).
file_times=(); pipe_times=()
for _ in 1 2 3; do
    s=$(date +%s.%N)
    "$bin" send "$work/payload.json" --cert "$cert" --ca-file "$ca" --endpoint "$endpoint" --topic "$topic" \
        --devices "$work/100k.txt" -o json > "$work/100k-file.out"
    e=$(date +%s.%N)
    file_times+=("$(python3 -c "print(($e-$s)*1000)")")
    s=$(date +%s.%N)
    cat "$work/100k.txt" | "$bin" send "$work/payload.json" --cert "$cert" --ca-file "$ca" --endpoint "$endpoint" \
        --topic "$topic" --devices - -o json > "$work/100k-pipe.out"
    e=$(date +%s.%N)
    pipe_times+=("$(python3 -c "print(($e-$s)*1000)")")
    [ "$(wc -l < "$work/100k-pipe.out")" = 100000 ] || { echo "error: the piped run did not give 100,000 results" >&2; exit 1; }
done
b_file=$(best "${file_times[@]}"); b_pipe=$(best "${pipe_times[@]}")
printf '100,000 devices from a pipe (best of 3): %.0f ms, from a regular file %.0f ms, ratio %s (target <= 1.1)\n' \
    "$b_pipe" "$b_file" "$(ratio "$b_pipe" "$b_file")"

# 5. 10,000 -d flags against 1,000, both ending at a bad last token (so nothing connects): linear would be
#    about 10 (the target); swift-argument-parser, which alone parses send, takes a repeated option in time
#    quadratic in its count (about 100).
dflags() {
    python3 - "$bin" "$1" <<'PY'
import subprocess, sys, time
bin, n = sys.argv[1], int(sys.argv[2])
args = [bin, "send", "--cert", "/nonexistent/cert.pem"]
for i in range(n): args += ["-d", "ab%062x" % (i + 1)]
args += ["-d", "zz"]
best = None
for _ in range(5):
    t = time.perf_counter()
    r = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = (time.perf_counter() - t) * 1000
    assert r.returncode == 64, r.returncode
    best = elapsed if best is None else min(best, elapsed)
print(best)
PY
}
d1k=$(dflags 1000); d10k=$(dflags 10000)
printf '10,000 -d flags (best of 5): %.0f ms, 1,000: %.0f ms, ratio %s (target <= 10)\n' "$d10k" "$d1k" "$(ratio "$d10k" "$d1k")"

# 6. The send history. One certificate-auth send recorded (a database that already holds entries) against the
#    same with --no-history, interleaved medians; the target is the larger of +2 ms and 1.10. Then the
#    20,000-device certificate batch recorded against --no-history (target <= 1.05).
hist_on=("${apns_cmd[@]}")
hist_off=("${apns_cmd[@]}" --no-history)
python3 "$work/pair.py" "$runs" "${#hist_on[@]}" "${hist_on[@]}" "${hist_off[@]}" > "$work/one-history.txt"
read -r h_on h_off < "$work/one-history.txt"
h_target=$(python3 -c "print(f'{max($h_off + 2, $h_off * 1.10):.1f}')")
echo "one send, history on vs --no-history (median of $runs): ${h_on} ms vs ${h_off} ms, +$(python3 -c "print(f'{$h_on - $h_off:.1f}')") ms, ratio $(ratio "$h_on" "$h_off") (target: <= ${h_target} ms, the larger of +2 ms and 1.10)"
# A difference of a few percent in a 200 ms run on a shared 2-core machine: more pairs than the other batch lines
# (5 fixed-order pairs gave anything from 0.92 to 1.30 while a build ran), their order alternating, and the median
# of the pairs' own ratios beside the medians.
hist_pairs=${BENCH_HISTORY_PAIRS:-15}
b_hist_on=(); b_hist_off=(); b_hist_ratios=()
for i in $(seq "$hist_pairs"); do
    if [ $((i % 2)) = 0 ]; then
        on=$(batch_runs=1 cert_batch_best); off=$(batch_runs=1 cert_batch_best --no-history)
    else
        off=$(batch_runs=1 cert_batch_best --no-history); on=$(batch_runs=1 cert_batch_best)
    fi
    b_hist_on+=("$on"); b_hist_off+=("$off"); b_hist_ratios+=("$(python3 -c "print($on/$off)")")
done
bh_on=$(median "${b_hist_on[@]}"); bh_off=$(median "${b_hist_off[@]}"); bh_ratio=$(median "${b_hist_ratios[@]}")
printf '20,000 over one connection, history on vs --no-history (%s alternating pairs): medians %.0f ms vs %.0f ms, median of the pairs'"'"' ratios %.2f (target <= 1.05)\n' \
    "$hist_pairs" "$bh_on" "$bh_off" "$bh_ratio"
