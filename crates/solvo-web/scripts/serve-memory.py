#!/usr/bin/env python3
"""Memory and the cap of the `solvo serve` binary under load (README figures).

Starts `solvo serve --port 18181 --max-searches CAP`, sends N analyses at once (a
21-empty position at level 11, solved exactly), waits for every answer, and prints
the status codes and the server's resident memory (VmRSS, peak VmHWM from
/proc/<pid>/status), then checks that /api/info still answers.

    python3 crates/solvo-web/scripts/serve-memory.py target/release/solvo 10 10
    python3 crates/solvo-web/scripts/serve-memory.py target/release/solvo 100 8
"""
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request

binary, n, cap = sys.argv[1], int(sys.argv[2]), sys.argv[3]
port = 18181
server = subprocess.Popen([binary, "serve", "--port", str(port), "--max-searches", cap], stdout=subprocess.PIPE)
server.stdout.readline()


def memory():
    fields = dict(line.split(":", 1) for line in open(f"/proc/{server.pid}/status"))
    return fields["VmRSS"].strip(), fields["VmHWM"].strip()


print("idle: rss, peak", memory())
moves = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1"
body = json.dumps({"game": {"moves": moves}, "level": 11}).encode()
statuses = [None] * n


def client(i):
    s = socket.create_connection(("127.0.0.1", port))
    head = b"POST /api/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
    s.sendall(head % len(body) + body)
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    statuses[i] = data.split(b" ")[1].decode()


start = time.time()
threads = [threading.Thread(target=client, args=(i,)) for i in range(n)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(f"{n} clients, cap {cap}: {time.time() - start:.1f} s, statuses", {s: statuses.count(s) for s in set(statuses)})
print("after: rss, peak", memory())
print(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info").read().decode())
server.terminate()
server.wait()
