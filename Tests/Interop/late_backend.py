#!/usr/bin/env python3
"""A backend for the nginx delivery tests: logs each request's path the moment it arrives (one line,
flushed), waits DELAY seconds, then answers 200 with an apns-id, as APNs would after processing.

Usage: late_backend.py PORT LOGFILE DELAY
"""
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, log_path, delay = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
log = open(log_path, "a", buffering=1)
lock = threading.Lock()
stop = threading.Event()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        with lock:
            log.write(self.path + "\n")
        stop.wait(delay)
        self.send_response(200)
        self.send_header("apns-id", str(uuid.uuid4()).upper())
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024


Server(("127.0.0.1", port), Handler).serve_forever()
