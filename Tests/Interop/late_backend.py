#!/usr/bin/env python3
"""A backend for the nginx delivery tests: logs each request's path the moment it arrives (one line,
flushed), waits DELAY seconds, then answers 200 with an apns-id, as APNs would after processing.

DELAY "hold" answers nothing until the process gets SIGUSR1, then everything at once: a test that kills
nginx while answers are held knows exactly which requests were in flight (every one logged so far),
however fast or slow the machine is.

Usage: late_backend.py PORT LOGFILE DELAY|hold
"""
import signal
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, log_path = int(sys.argv[1]), sys.argv[2]
hold = sys.argv[3] == "hold"
delay = 0.0 if hold else float(sys.argv[3])
log = open(log_path, "a", buffering=1)
lock = threading.Lock()
stop = threading.Event()
released = threading.Event()
if not hold:
    released.set()
# Installed before the port listens, so a test that waited for the port can signal at once; unblocked
# because a test runner's children may inherit a mask that blocks signals.
signal.signal(signal.SIGUSR1, lambda *_: released.set())
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGUSR1])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        with lock:
            log.write(self.path + "\n")
        released.wait()
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
