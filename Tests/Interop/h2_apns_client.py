#!/usr/bin/env python3
"""An APNs client this project did not write, for interop tests of `apnsctl mock`.

It speaks HTTP/2 with the `h2` library over Python's `ssl`, and signs its provider token the way PyAPNs2 and
its forks do (PyJWT, ES256, `iat` = `time.time()`, i.e. fractional seconds), so the mock is held against a
second TLS stack, a second HTTP/2 stack and a second JWT signer. Prints one JSON line per device:
{"device": ..., "status": ..., "reason": ..., "apns_id": ...}. Exit 0 when every device got an answer.

Usage: h2_apns_client.py --endpoint https://127.0.0.1:PORT --ca-file ca.pem
           (--cert client.pem | --auth-key AuthKey_X.p8 --key-id X --team-id T [--iat SECONDS])
           --topic TOPIC [--payload JSON] DEVICE...
"""
import argparse
import json
import socket
import ssl
import sys
import time
from urllib.parse import urlparse

import h2.config
import h2.connection
import h2.events


def provider_token(key_file, key_id, team_id, iat):
    import jwt  # PyJWT, as PyAPNs2 uses it

    with open(key_file, "rb") as f:
        key = f.read()
    claims = {"iss": team_id, "iat": time.time() if iat is None else iat}
    token = jwt.encode(claims, key, algorithm="ES256", headers={"kid": key_id})
    return token.decode() if isinstance(token, bytes) else token


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--endpoint", required=True)
    p.add_argument("--ca-file", required=True)
    p.add_argument("--cert")
    p.add_argument("--auth-key")
    p.add_argument("--key-id")
    p.add_argument("--team-id")
    p.add_argument("--iat", type=float, help="iat claim (default: time.time(), fractional)")
    p.add_argument("--topic", required=True)
    p.add_argument("--payload", default='{"aps":{"alert":"hello from python h2"}}')
    p.add_argument("--timeout", type=float, default=10)
    p.add_argument("devices", nargs="+")
    a = p.parse_args()

    url = urlparse(a.endpoint)
    ctx = ssl.create_default_context(cafile=a.ca_file)
    ctx.set_alpn_protocols(["h2"])
    if a.cert:
        ctx.load_cert_chain(a.cert)
    raw = socket.create_connection((url.hostname, url.port), timeout=a.timeout)
    tls = ctx.wrap_socket(raw, server_hostname=url.hostname)
    if tls.selected_alpn_protocol() != "h2":
        print("server did not select h2", file=sys.stderr)
        return 2

    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    tls.sendall(conn.data_to_send())

    headers_common = [("apns-topic", a.topic), ("apns-push-type", "alert"), ("apns-priority", "10")]
    if a.auth_key:
        token = provider_token(a.auth_key, a.key_id, a.team_id, a.iat)
        headers_common.append(("authorization", "bearer " + token))
    body = a.payload.encode()
    streams = {}
    pending = list(a.devices)
    results = {}
    deadline = time.time() + a.timeout

    def send_next():
        # One stream at a time until the server's SETTINGS raise the limit (a token connection starts at 1).
        while pending and len(streams) - len(results) < max(1, conn.remote_settings.max_concurrent_streams):
            device = pending.pop(0)
            sid = conn.get_next_available_stream_id()
            streams[sid] = {"device": device, "status": None, "headers": {}, "body": b""}
            conn.send_headers(sid, [(":method", "POST"), (":scheme", "https"), (":authority", url.netloc),
                                    (":path", "/3/device/" + device)] + headers_common +
                              [("content-length", str(len(body)))])
            conn.send_data(sid, body, end_stream=True)
        tls.sendall(conn.data_to_send())

    send_next()
    while len(results) < len(a.devices) and time.time() < deadline:
        data = tls.recv(65536)
        if not data:
            break
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                s = streams[event.stream_id]
                s["headers"] = {k.decode(): v.decode() for k, v in event.headers}
            elif isinstance(event, h2.events.DataReceived):
                streams[event.stream_id]["body"] += event.data
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                s = streams[event.stream_id]
                reason = json.loads(s["body"]).get("reason") if s["body"] else None
                results[event.stream_id] = {"device": s["device"], "status": int(s["headers"].get(":status", 0)),
                                            "reason": reason, "apns_id": s["headers"].get("apns-id")}
                print(json.dumps(results[event.stream_id]), flush=True)
            elif isinstance(event, h2.events.StreamReset):
                # Refused before the server's limit was known: send it again.
                pending.append(streams.pop(event.stream_id)["device"])
        send_next()
    conn.close_connection()
    tls.sendall(conn.data_to_send())
    tls.close()
    return 0 if len(results) == len(a.devices) else 1


if __name__ == "__main__":
    sys.exit(main())
