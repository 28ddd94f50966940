#!/usr/bin/env bash
# make demo: apnsctl at work on the samples in Payloads/, against apnsctl mock on loopback.
# No Apple account needed: the mock makes its own CA, a demo push certificate and a .p8 key.
set -uo pipefail
bin=${1:-.build/debug/apnsctl}
cd "$(dirname "$0")/.."
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

state=$(mktemp -d "${TMPDIR:-/tmp}/apnsctl-demo.XXXXXX")
mock_pid=""
cleanup() {
    [ -n "$mock_pid" ] && kill -TERM "$mock_pid" 2>/dev/null && wait "$mock_pid" 2>/dev/null
    rm -rf "$state"
}
trap cleanup EXIT INT TERM

# Shows a command as a user would type it ($STATE and $MOCK stand for the demo's paths), then runs it.
show() {
    local shown="" arg
    for arg in "$@"; do
        case "$arg" in
            *[\ \'\"{}]*) arg="'$arg'" ;;
        esac
        shown+="${shown:+ }$arg"
    done
    shown=${shown//$state/\$STATE}
    shown=${shown//$endpoint/\$MOCK}
    shown=${shown//$bin/apnsctl}
    shown=${shown//$good/\$GOOD}
    shown=${shown//$gone/\$GONE}
    shown=${shown//$wrongenv/\$WRONGENV}
    [ -n "${channel:-}" ] && shown=${shown//$channel/\$ID}
    if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then printf '\n\033[1m$ %s\033[0m\n' "$shown"; else printf '\n$ %s\n' "$shown"; fi
    "$@"
    local rc=$?
    echo "(exit $rc)"
}
endpoint="https://127.0.0.1:0"
good=5f1c8a1e9b0d4c7a2e3f6b8d0c1a9e7f5d3b1a0c8e6f4d2b0a9c7e5f3d1b2a4c
gone=0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9
wrongenv=77b01d2c3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f0a11

echo "== apnsctl $("$bin" --version | cut -d' ' -f2-)"

echo
echo "== 1. Check the sample payloads (no network)"
show "$bin" validate Payloads/alert.json Payloads/alert-title-subtitle-body.json Payloads/background.json \
    Payloads/critical-alert.json Payloads/demo.apns
show "$bin" validate --push-type liveactivity Payloads/liveactivity-start.json
show "$bin" validate Payloads/invalid/badge-string.json
show "$bin" validate --push-type background Payloads/invalid/background-with-alert.json

echo
echo "== 2. Start a local APNs (apnsctl mock) on a free port"
echo "   GOOD is a token it accepts, GONE one it treats as uninstalled (410), WRONGENV one from the other environment"
"$bin" mock --port 0 --state-dir "$state" --unregistered "$gone" --reject "$wrongenv=BadDeviceToken" \
    > "$state/notifications.jsonl" 2> "$state/mock.err" &
mock_pid=$!
for _ in $(seq 1 100); do [ -s "$state/mock.json" ] && break; sleep 0.1; done
if [ ! -s "$state/mock.json" ]; then
    echo "error: apnsctl mock did not start:" >&2; cat "$state/mock.err" >&2; exit 1
fi
sed "s|$state|\$STATE|g" "$state/mock.err"
field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" "$state/mock.json"; }
endpoint=$(field endpoint)
key_file=$(field auth_key)
team_id=$(field team_id)
echo "(MOCK=$endpoint; STATE holds ca.pem, client.pem and $(basename "$key_file"))"
cert=(--endpoint "$endpoint" --ca-file "$state/ca.pem" --cert "$state/client.pem")
token=(--endpoint "$endpoint" --ca-file "$state/ca.pem" --auth-key "$key_file" --team-id "$team_id")

echo
echo "== 3. Send with the demo push certificate (topic and environment come from the certificate)"
show "$bin" send "${cert[@]}" -d "$good" Payloads/alert-title-subtitle-body.json
show "$bin" send "${cert[@]}" -d "$good" Payloads/background.json
show "$bin" send "${cert[@]}" -d "$good" --push-type voip Payloads/voip.json
show "$bin" send "${cert[@]}" -d "$good" Payloads/demo.apns

echo
echo "== 4. Send with the demo .p8 key (token auth: a cached ES256 JWT)"
show "$bin" send "${token[@]}" --topic com.example.demo -d "$good" Payloads/critical-alert.json
show "$bin" send "${token[@]}" --topic com.example.demo.push-type.liveactivity -d "$good" --timestamp now Payloads/liveactivity-start.json

echo
echo "== 5. Several devices on one connection: one accepted, one uninstalled, one from the wrong environment"
show "$bin" send "${cert[@]}" -d "$good" -d "$gone" -d "$wrongenv" --alert "Your order has shipped"
show "$bin" send "${cert[@]}" -d "$good" -d "$gone" --alert "JSON for scripts" -o json

echo
echo "== 6. Mistakes: one caught before sending, one answered by APNs with a hint"
show "$bin" send "${cert[@]}" -d "$good" Payloads/invalid/badge-string.json
show "$bin" send "${cert[@]}" -d "$good" --topic com.example.other --alert "wrong app"

echo
echo "== 7. Broadcast to a Live Activity channel (iOS 18): create, send an update, list, delete"
channel=""
printf '\n$ ID=$(apnsctl channel create --endpoint $MOCK --ca-file $STATE/ca.pem --cert $STATE/client.pem)\n'
channel=$("$bin" channel create "${cert[@]}" 2> "$state/channel.err")
rc=$?
sed "s|$state|\$STATE|g" "$state/channel.err"
echo "(exit $rc; ID=$channel)"
show "$bin" send "${cert[@]}" --channel "$channel" --timestamp now --stale-date 1h Payloads/liveactivity-update.json
show "$bin" channel list "${cert[@]}" -o json
show "$bin" channel delete "$channel" --yes "${cert[@]}"
show "$bin" send "${cert[@]}" --channel "$channel" --timestamp now --dismissal-date 1h Payloads/liveactivity-end.json

echo
echo "== 8. What the mock logged (a line when each request arrived, and one when it was answered)"
head -n 2 "$state/notifications.jsonl"
grep -m 1 '"operation":"broadcast"' "$state/notifications.jsonl"
echo "… $(grep -c '"event":"answered"' "$state/notifications.jsonl") notifications answered in all"
