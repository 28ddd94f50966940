#!/usr/bin/env python3
"""Watches, frame by frame, how a server ends an HTTP/2 connection: for tests of `apnsctl mock`'s faults.

Sends the requests (all at once, or one after another with --sequential) on one TLS connection with Python's
`ssl` and `h2`, reads until the connection ends, and prints one JSON object:
  {"answers": [{"stream": 1, "status": 200, "reason": null}, ...],
   "goaway": {"last_stream_id": 1, "error_code": 0, "data": "{\"reason\":\"Shutdown\"}"} or null,
   "resets": [{"stream": 3, "error_code": 7}, ...],
   "end": "close_notify" | "eof" | "reset" | "timeout"}
"end" tells how TCP/TLS ended: TLS close_notify, a TCP FIN without close_notify, or a TCP RST.
With --hold-first, the first request's body is held back until a GOAWAY arrives, then sent.

Usage: h2_fault_probe.py --port PORT --ca-file ca.pem --cert client.pem [--sequential] [--hold-first] PATH...
"""
import argparse
import errno
import json
import socket
import ssl
import struct
import sys
import time

import hpack
from hyperframe.frame import (DataFrame, Frame, GoAwayFrame, HeadersFrame, PingFrame, RstStreamFrame,
                              SettingsFrame, WindowUpdateFrame)

# Frames are built and parsed by hand (hyperframe, hpack) rather than through h2's connection state machine,
# which refuses every frame after a GOAWAY: seeing what a server does after its GOAWAY is the point here.


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--ca-file", required=True)
    p.add_argument("--cert", required=True)
    p.add_argument("--topic", default="com.example.demo")
    p.add_argument("--sequential", action="store_true")
    p.add_argument("--hold-first", action="store_true")
    p.add_argument("--timeout", type=float, default=10)
    p.add_argument("paths", nargs="+")
    a = p.parse_args()

    ctx = ssl.create_default_context(cafile=a.ca_file)
    ctx.set_alpn_protocols(["h2"])
    ctx.load_cert_chain(a.cert)
    # Python sets OP_IGNORE_UNEXPECTED_EOF by default, which makes a missing close_notify look like one.
    ctx.options &= ~getattr(ssl, "OP_IGNORE_UNEXPECTED_EOF", 0)
    raw = socket.create_connection(("127.0.0.1", a.port), timeout=a.timeout)
    # TLS over memory BIOs, the socket read by hand: a TCP RST (ConnectionResetError from recv), a FIN without
    # close_notify (SSLEOFError) and close_notify (SSLZeroReturnError) stay three different things.
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = ctx.wrap_bio(incoming, outgoing, server_hostname="127.0.0.1")

    reset_on_send = [False]

    def pump_out():
        data = outgoing.read()
        if data:
            try:
                raw.sendall(data)
            except ConnectionResetError:
                # The RST was reported to this write, not to a later read.
                reset_on_send[0] = True
            except OSError:
                pass

    while True:
        try:
            tls.do_handshake()
            break
        except ssl.SSLWantReadError:
            pump_out()
            data = raw.recv(65536)
            if not data:
                print(json.dumps({"error": "closed during the handshake"}))
                return 1
            incoming.write(data)
    pump_out()
    encoder, decoder = hpack.Encoder(), hpack.Decoder()
    body = b'{"aps":{"alert":"probe"}}'
    out = {"answers": [], "goaway": None, "resets": [], "end": "timeout"}
    statuses, bodies = {}, {}
    pending = list(a.paths)
    next_id = [1]
    held = [None]

    def send_bytes(data):
        try:
            tls.write(data)
        except ssl.SSLError:
            return
        pump_out()

    def request(path, hold=False):
        sid = next_id[0]
        next_id[0] += 2
        h = HeadersFrame(sid)
        h.data = encoder.encode([(":method", "POST"), (":scheme", "https"), (":authority", "127.0.0.1"),
                                 (":path", path), ("apns-topic", a.topic), ("content-length", str(len(body)))])
        h.flags.add("END_HEADERS")
        data = h.serialize()
        if hold:
            held[0] = sid
        else:
            d = DataFrame(sid)
            d.data = body
            d.flags.add("END_STREAM")
            data += d.serialize()
        return data

    first = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + SettingsFrame(0).serialize()
    if a.sequential:
        first += request(pending.pop(0))
    else:
        while pending:
            first += request(pending.pop(0), hold=a.hold_first and held[0] is None and next_id[0] == 1)
    send_bytes(first)

    buffer = b""
    deadline = time.time() + a.timeout
    while time.time() < deadline and out["end"] == "timeout":
        try:
            received = raw.recv(65536)
        except ConnectionResetError:
            out["end"] = "reset"
            break
        except socket.timeout:
            break
        if received:
            incoming.write(received)
        elif reset_on_send[0] or raw.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == errno.ECONNRESET:
            # Linux reports an RST that arrived behind unread data as end of file, keeping the error pending.
            out["end"] = "reset"
            break
        else:
            incoming.write_eof()
        data = b""
        while True:
            try:
                chunk = tls.read(65536)
            except ssl.SSLWantReadError:
                break
            except ssl.SSLZeroReturnError:
                out["end"] = "close_notify"
                break
            except ssl.SSLEOFError:
                out["end"] = "eof"
                break
            except ssl.SSLError as e:
                # OpenSSL 3 reports a FIN without close_notify as UNEXPECTED_EOF_WHILE_READING.
                out["end"] = "eof" if "EOF" in str(e).upper() else "tls_error: " + str(e)
                break
            if not chunk:
                out["end"] = "close_notify"
                break
            data += chunk
        buffer += data
        reply = b""
        while len(buffer) >= 9:
            length = struct.unpack(">I", b"\x00" + buffer[:3])[0]
            if len(buffer) < 9 + length:
                break
            frame, _ = Frame.parse_frame_header(memoryview(buffer[:9]))
            frame.parse_body(memoryview(buffer[9:9 + length]))
            buffer = buffer[9 + length:]
            if isinstance(frame, SettingsFrame) and "ACK" not in frame.flags:
                ack = SettingsFrame(0)
                ack.flags.add("ACK")
                reply += ack.serialize()
            elif isinstance(frame, PingFrame) and "ACK" not in frame.flags:
                pong = PingFrame(0)
                pong.opaque_data = frame.opaque_data
                pong.flags.add("ACK")
                reply += pong.serialize()
            elif isinstance(frame, HeadersFrame):
                headers = dict(decoder.decode(frame.data))
                status = headers.get(":status") or headers.get(b":status")
                statuses[frame.stream_id] = int(status)
            elif isinstance(frame, DataFrame):
                bodies[frame.stream_id] = bodies.get(frame.stream_id, b"") + frame.data
                if frame.data:
                    for sid in (0, frame.stream_id):
                        w = WindowUpdateFrame(sid)
                        w.window_increment = len(frame.data)
                        reply += w.serialize()
            elif isinstance(frame, RstStreamFrame):
                out["resets"].append({"stream": frame.stream_id, "error_code": frame.error_code})
            elif isinstance(frame, GoAwayFrame):
                out["goaway"] = {"last_stream_id": frame.last_stream_id, "error_code": frame.error_code,
                                 "data": frame.additional_data.decode("utf-8", "replace"),
                                 "answers_before": len(out["answers"])}
                if held[0] is not None:
                    # The held request is at or below last-stream-id: a real server still answers it.
                    d = DataFrame(held[0])
                    d.data = body
                    d.flags.add("END_STREAM")
                    reply += d.serialize()
                    held[0] = None
            if isinstance(frame, (HeadersFrame, DataFrame)) and "END_STREAM" in frame.flags:
                b = bodies.get(frame.stream_id)
                out["answers"].append({"stream": frame.stream_id, "status": statuses.get(frame.stream_id),
                                       "reason": json.loads(b).get("reason") if b else None})
                if a.sequential and pending and out["goaway"] is None:
                    reply += request(pending.pop(0))
        if reply:
            send_bytes(reply)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
