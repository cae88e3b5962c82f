#!/usr/bin/env python3
"""Round-trip time of `palisade screen --jsonl` kept as a helper process: write a line, read its answer.

    python3 benches/jsonl_roundtrip.py target/release/palisade
"""
import subprocess, sys, time, json
p = subprocess.Popen([sys.argv[1], "--no-config", "screen", "--jsonl", "--no-ticket"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
ts = []
for i in range(500):
    t = time.perf_counter()
    p.stdin.write(json.dumps({"id": i, "text": "Hi Sam, your refund is on its way. Mail bob@example.org"}) + "\n"); p.stdin.flush()
    line = p.stdout.readline()
    ts.append(time.perf_counter() - t)
    assert json.loads(line)["id"] == i
p.stdin.close(); p.wait()
ts.sort()
print(f"round trips: 500, median {ts[250]*1e6:.0f} us, p90 {ts[450]*1e6:.0f} us")
