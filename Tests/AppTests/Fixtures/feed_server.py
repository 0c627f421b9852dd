#!/usr/bin/env python3
"""A static file server for the runtime plugin tests, on loopback, that can misbehave on purpose.

Usage: feed_server.py FOLDER MODE [LOG]. It prints the port it listens on, then serves FOLDER until
killed; with LOG, it appends each answer to that file as "STATUS PATH". Files are served with an ETag
(their SHA-256), and a request whose If-None-Match names it is answered 304.
MODE: ok (Range supported), 404 (every request), 500-twice (the first two archive requests fail),
stall (archives: headers, a few bytes, then silence), truncate-once (the first archive response ends
early; Range requests then resume), truncate (every archive response ends early), no-range (as
truncate-once, but Range is ignored: the retry gets the whole file again), redirect (every file is
answered with a 302 to the same path with a query), trickle (archives: a byte every half second),
html (every file is an HTML error page with status 200, as a misconfigured server or a portal sends),
html-archive (as html, for archives only), redirect-loop (every request: a 302 to itself),
stall-all (every request: headers, then silence), 500 (every request), truncate-all (every file ends
halfway), trickle-all (every file: a byte every 0.3 seconds, never idle long enough to time out).
"""
import hashlib
import http.server
import os
import sys
import threading
import time

folder, mode = sys.argv[1], sys.argv[2]
log = sys.argv[3] if len(sys.argv) > 3 else None
counts = {"archive": 0}
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_response(self, code, message=None):
        if log:
            with lock, open(log, "a") as file:
                file.write("%d %s\n" % (code, self.path))
        super().send_response(code, message)

    def do_GET(self):
        if mode == "500":
            return self.fail(500)
        if mode == "stall-all":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.flush()
            time.sleep(60)
            return
        if mode == "html" or (mode == "html-archive" and self.path.split("?")[0].endswith(".tar")):
            page = b"<!DOCTYPE html><html><body><h1>Welcome</h1></body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)
            return
        if mode == "redirect-loop" or (mode == "redirect" and "?" not in self.path):
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
        etag = '"%s"' % hashlib.sha256(data).hexdigest()[:32]
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        start = 0
        header = self.headers.get("Range")
        if header and header.startswith("bytes=") and header.endswith("-") and mode != "no-range":
            start = int(header[6:-1])
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if (archive and mode == "trickle") or mode == "trickle-all":
            for byte in body:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.5 if mode == "trickle" else 0.3)
            return
        if archive and mode == "stall":
            self.wfile.write(body[:100])
            self.wfile.flush()
            time.sleep(60)
            return
        if mode == "truncate-all" or (archive and (mode == "truncate" or (mode in ("truncate-once", "no-range") and number == 1))):
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
