#!/usr/bin/env python3
"""A small real RESP server for integration tests: it parses every command it receives (RESP
arrays, as redis clients send them), answers it from an in-memory store (strings, hashes,
DBSIZE, PING, ECHO; anything else: -ERR unknown command) and logs it, one JSON line per command
to LOG: [global sequence, connection number, arguments...]. A test then checks the log against
what the template, the key pattern, the mix and the setup say.

usage: resp_fixture.py PORT LOG"""
import json
import socket
import sys
import threading

store = {}
lock = threading.Lock()
seq = [0]
conns = [0]


def reply(args):
    name = args[0].upper()
    if name == b"PING":
        return b"+PONG\r\n"
    if name == b"ECHO" and len(args) == 2:
        return b"$%d\r\n%s\r\n" % (len(args[1]), args[1])
    if name == b"SET" and len(args) == 3:
        store[args[1]] = args[2]
        return b"+OK\r\n"
    if name == b"MSET" and len(args) % 2 == 1:
        for i in range(1, len(args), 2):
            store[args[i]] = args[i + 1]
        return b"+OK\r\n"
    if name == b"GET" and len(args) == 2:
        v = store.get(args[1])
        if isinstance(v, dict):
            return b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"
        return b"$-1\r\n" if v is None else b"$%d\r\n%s\r\n" % (len(v), v)
    if name in (b"HSET", b"HDEL") and len(args) >= 3:
        h = store.setdefault(args[1], {})
        if not isinstance(h, dict):
            return b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"
        n = 0
        if name == b"HSET":
            for i in range(2, len(args) - 1, 2):
                n += args[i] not in h
                h[args[i]] = args[i + 1]
        else:
            for f in args[2:]:
                n += h.pop(f, None) is not None
        return b":%d\r\n" % n
    if name == b"DBSIZE":
        return b":%d\r\n" % len(store)
    return b"-ERR unknown command '%s'\r\n" % name


def parse(buf):
    """One command from buf: (args, rest) or (None, buf) when incomplete."""
    if not buf.startswith(b"*"):
        if buf:
            raise ValueError("not a RESP array: %r" % buf[:20])
        return None, buf
    nl = buf.find(b"\r\n")
    if nl < 0:
        return None, buf
    n, pos, args = int(buf[1:nl]), nl + 2, []
    for _ in range(n):
        nl = buf.find(b"\r\n", pos)
        if nl < 0:
            return None, buf
        assert buf[pos:pos + 1] == b"$"
        ln = int(buf[pos + 1:nl])
        if len(buf) < nl + 2 + ln + 2:
            return None, buf
        args.append(buf[nl + 2:nl + 2 + ln])
        pos = nl + 2 + ln + 2
    return args, buf[pos:]


def serve(sock, cid, log):
    buf = b""
    while True:
        data = sock.recv(65536)
        if not data:
            break
        buf += data
        out = []
        while True:
            args, buf = parse(buf)
            if args is None:
                break
            with lock:
                seq[0] += 1
                log.write(json.dumps([seq[0], cid] + [a.decode("latin-1") for a in args]) + "\n")
                out.append(reply(args))
        if out:
            log.flush()
            sock.sendall(b"".join(out))
    sock.close()


def main():
    port, path = int(sys.argv[1]), sys.argv[2]
    log = open(path, "w")
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(64)
    while True:
        s, _ = srv.accept()
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with lock:
            conns[0] += 1
            cid = conns[0]
        threading.Thread(target=serve, args=(s, cid, log), daemon=True).start()


main()
