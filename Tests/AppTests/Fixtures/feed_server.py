#!/usr/bin/env python3
"""A static file server for the runtime plugin tests, on loopback, that can misbehave on purpose.

Usage: feed_server.py FOLDER MODE. It prints the port it listens on, then serves FOLDER until killed.
MODE: ok (Range supported), 404 (every request), 500-twice (the first two archive requests fail),
stall (archives: headers, a few bytes, then silence), truncate-once (the first archive response ends
early; Range requests then resume), truncate (every archive response ends early), no-range (as
truncate-once, but Range is ignored: the retry gets the whole file again), redirect (every file is
answered with a 302 to the same path with a query).
"""
import http.server
import os
import sys
import threading
import time

folder, mode = sys.argv[1], sys.argv[2]
counts = {"archive": 0}
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if mode == "redirect" and "?" not in self.path:
            self.send_response(302)
            self.send_header("Location", self.path + "?moved=1")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        path = os.path.normpath(os.path.join(folder, self.path.lstrip("/").split("?")[0]))
        if not path.startswith(os.path.abspath(folder)) or not os.path.isfile(path):
            return self.fail(404)
        if mode == "404":
            return self.fail(404)
        archive = path.endswith(".tar")
        with lock:
            if archive:
                counts["archive"] += 1
            number = counts["archive"]
        if archive and mode == "500-twice" and number <= 2:
            return self.fail(500)
        data = open(path, "rb").read()
        start = 0
        header = self.headers.get("Range")
        if header and header.startswith("bytes=") and header.endswith("-") and mode != "no-range":
            start = int(header[6:-1])
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if archive and mode == "stall":
            self.wfile.write(body[:100])
            self.wfile.flush()
            time.sleep(60)
            return
        if archive and (mode == "truncate" or (mode in ("truncate-once", "no-range") and number == 1)):
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body)

    def fail(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
