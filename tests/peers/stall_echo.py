#!/usr/bin/env python3
"""A TCP echo server that stops answering mid-run (tests/integration/58-compare-integrity.sh).

Usage: stall_echo.py PORT STALL_AFTER_S
Listens on 127.0.0.1:PORT and echoes every byte it reads, until STALL_AFTER_S seconds after its
second connection was accepted (the first is compare's readiness probe); from then on it keeps
reading and never answers again, without closing anything: a server that went silent. Runs
until killed."""
import selectors
import socket
import sys
import time

port, stall_after = int(sys.argv[1]), float(sys.argv[2])
sel = selectors.DefaultSelector()
lst = socket.socket()
lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
lst.bind(("127.0.0.1", port))
lst.listen(512)
lst.setblocking(False)
sel.register(lst, selectors.EVENT_READ)
accepted = 0
stall_at = None
while True:
    for key, _ in sel.select(0.05):
        s = key.fileobj
        if s is lst:
            c, _ = lst.accept()
            c.setblocking(False)
            accepted += 1
            if accepted == 2:
                stall_at = time.monotonic() + stall_after
            sel.register(c, selectors.EVENT_READ)
            continue
        try:
            data = s.recv(65536)
        except OSError:
            data = b""
        if not data:
            sel.unregister(s)
            s.close()
            continue
        if stall_at is None or time.monotonic() < stall_at:
            try:
                s.sendall(data)
            except OSError:
                pass
