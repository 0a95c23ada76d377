#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""slow_flood.py URL — slow clients against judgeweb (issue 33), run by
tests/scripts/web-browser.sh on the judgeweb it started (default limits:
max_connections 256, max_per_client 64, header_timeout 5 s).  400
sockets from eight loopback addresses (127.0.0.1 to 127.0.0.8, one /24)
each send the start of a request and then one header byte a second,
never ending it; while they do, headless Chromium loads the game page
and must have it whole in under a second, twice; a client of another
/24 (127.0.1.1) is served too; the door keeps at most max_per_client of
the 400 and closes the rest within the header timeout.  Prints one line
per failed check and ends with "N passed, N failed"."""

import http.server
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

URL = sys.argv[1]
PORT = urllib.parse.urlparse(URL).port
passed = failed = 0


def check(what, cond):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, flush=True)


socks = []
stop = threading.Event()


def flood():
    for i in range(400):
        s = socket.socket()
        s.bind((f"127.0.0.{1 + i % 8}", 0))
        s.setblocking(False)
        try:
            s.connect(("127.0.0.1", PORT))
        except BlockingIOError:
            pass
        socks.append(s)
    time.sleep(0.3)
    for s in socks:
        try:
            s.send(b"GET /game/demo HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        except OSError:
            pass


def trickle():
    while not stop.is_set():
        for s in socks:
            try:
                s.send(b"a")
            except OSError:
                pass
        stop.wait(1.0)


def still_open():
    """Sockets the server has not closed (nothing to read, no EOF)."""
    n = 0
    for s in socks:
        try:
            data = s.recv(4096)
            if data == b"" or data.startswith(b"HTTP/1.1 408") or \
               data.startswith(b"HTTP/1.1 503"):
                continue
            n += 1
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n


class Warm(http.server.BaseHTTPRequestHandler):
    """One small page, nothing of the disk."""

    def do_GET(self):
        body = b"<!DOCTYPE html><title>warm</title><p>warm</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def load_time(driver, path):
    """Seconds from the navigation's start to the page loaded whole (its
    stylesheet and pictures too), as the browser measured them."""
    t0 = time.time()
    driver.get(URL + path)
    wall = time.time() - t0
    ms = driver.execute_script(
        "const t = performance.getEntriesByType('navigation')[0];"
        "return t ? t.loadEventEnd - t.startTime : -1;")
    ok = "Game demo" in driver.find_element("tag name", "body").text
    t = ms / 1000 if ms and ms > 0 else wall
    print(f"slow_flood: {path}: loaded in {t:.3f} s (driver.get {wall:.3f} s)",
          flush=True)
    return t, ok


def main():
    profile = tempfile.mkdtemp(prefix="dj-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-quic", "--no-first-run",
                 "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                              options=opts)
    driver.set_page_load_timeout(20)
    try:
        # The browser up, and its renderer for 127.0.0.1 started, on a
        # server of our own: no connection to judgeweb it could reuse.
        warm = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Warm)
        threading.Thread(target=warm.serve_forever, daemon=True).start()
        driver.get(f"http://127.0.0.1:{warm.server_address[1]}/")
        warm.shutdown()
        flood()
        threading.Thread(target=trickle, daemon=True).start()
        time.sleep(1.5)
        for k in (1, 2):
            t, ok = load_time(driver, "/game/demo")
            check(f"400 slow sockets: the browser has the game page ({ok})",
                  ok)
            check(f"in under a second (load {k}: {t:.3f} s)", t < 1.0)
        other = socket.create_connection(("127.0.0.1", PORT), timeout=3,
                                         source_address=("127.0.1.1", 0))
        other.sendall(b"GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n")
        got = other.recv(20)
        check(f"a client of another /24 is served ({got!r})",
              got.startswith(b"HTTP/1.1 200"))
        other.close()
        held = still_open()
        print(f"slow_flood: {held} of the 400 slow sockets still open",
              flush=True)
        check(f"the /24 holds at most 64 of the 400 ({held} open)",
              held <= 64)
        time.sleep(5.5)
        held = still_open()
        check(f"a head still trickling in after 5 s is closed ({held} open)",
              held == 0)
    finally:
        stop.set()
        driver.quit()
        for s in socks:
            s.close()
        subprocess.run(["rm", "-rf", profile])
    print(f"{passed} passed, {failed} failed")


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        import traceback
        traceback.print_exc()
        failed += 1
        print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
