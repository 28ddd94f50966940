#!/usr/bin/env python3
"""A tiny APNs stand-in on Python's `h2` and `ssl`, a server this project did not write, for answers
`apnsctl mock` never gives: it answers each POST /3/device/TOKEN as told on the command line, with
`{"reason": REASON}` as the body (a REASON starting with `<` is sent as a web page, text/html, without the
`apns-id` APNs always sends: a web server at the wrong --endpoint; a lone `<`, no body), and 200 for any other
token. It prints `listening PORT` once ready and
serves until killed (or --lifetime seconds).

Usage: h2_answer_server.py --cert server.pem [--answer TOKEN=STATUS:REASON]... [--lifetime 300]
(server.pem holds the certificate and its key.)
"""
import argparse
import json
import os
import socket
import ssl
import threading
import uuid

import h2.config
import h2.connection
import h2.events
import h2.exceptions


def respond(conn, stream_id, path, answers):
    token = path.rsplit("/", 1)[-1]
    status, reason = answers.get(token, (200, None))
    if reason is not None and reason.startswith("<"):
        page = b"" if reason == "<" else reason.encode()  # a lone `<`: no page at all
        head = [(":status", str(status)), ("content-type", "text/html"), ("content-length", str(len(page)))]
        conn.send_headers(stream_id, head, end_stream=not page)
        if page:
            conn.send_data(stream_id, page, end_stream=True)
        return
    headers = [(":status", str(status)), ("apns-id", str(uuid.uuid4()).upper())]
    if reason is None:
        conn.send_headers(stream_id, headers, end_stream=True)
        return
    body = json.dumps({"reason": reason}).encode()
    conn.send_headers(stream_id, headers + [("content-type", "application/json"), ("content-length", str(len(body)))])
    conn.send_data(stream_id, body, end_stream=True)


def serve(sock, answers):
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
    conn.initiate_connection()
    paths = {}
    try:
        sock.sendall(conn.data_to_send())
        while True:
            data = sock.recv(65536)
            if not data:
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.RequestReceived):
                    paths[event.stream_id] = dict(event.headers).get(":path", "")
                elif isinstance(event, h2.events.DataReceived):
                    conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, h2.events.StreamEnded):
                    respond(conn, event.stream_id, paths.pop(event.stream_id, ""), answers)
            out = conn.data_to_send()
            if out:
                sock.sendall(out)
    except (OSError, ssl.SSLError, h2.exceptions.ProtocolError):
        pass
    finally:
        sock.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cert", required=True)
    p.add_argument("--answer", action="append", default=[])
    p.add_argument("--lifetime", type=float, default=300)
    args = p.parse_args()
    answers = {}
    for a in args.answer:
        token, rest = a.split("=", 1)
        status, reason = rest.split(":", 1)
        answers[token.lower()] = (int(status), reason)

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert)
    context.set_alpn_protocols(["h2"])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()
    print("listening %d" % listener.getsockname()[1], flush=True)
    while True:
        try:
            client, _ = listener.accept()
        except OSError:
            break
        try:
            tls = context.wrap_socket(client, server_side=True)
        except (OSError, ssl.SSLError):
            client.close()
            continue
        threading.Thread(target=serve, args=(tls, answers), daemon=True).start()


if __name__ == "__main__":
    main()
