# Generates the golden fixtures' datasets: tests/golden/{two,three,one}-version/{runs.jsonl,meta.json}
# (hand-chosen models of realistic driver results, fixed random seeds, so the output is the same
# every time). Usage: python3 tests/golden/make-fixtures.py tests/golden
# The expected reports next to them are rendered by `bin/compare report` and checked by
# tests/integration/600-golden.sh (PAIRBENCH_GOLDEN_UPDATE=1 rewrites them after a deliberate
# change to the report format).
import json, hashlib, random, os, sys

def cid(params):
    return hashlib.sha256(json.dumps(params, sort_keys=True, separators=(',', ':')).encode()).hexdigest()[:8]

def size(b):
    return f"{b // 1024} KiB" if b >= 1024 and b % 1024 == 0 else f"{b} B"

def label(p):
    proto = p["protocol"]; cmd = p.get("command", "ECHO")
    is_redis = proto == "redis"; is_web = proto in ("http", "ws")
    parts = [proto]
    if p.get("transport", "tcp") == "tls": parts.append("tls")
    if is_redis: parts.append(cmd)
    if not is_redis or cmd in ("ECHO", "SET") or "payload" in p: parts.append(size(p.get("payload", 64)))
    if is_redis or p.get("pipeline", 1) != 1: parts.append(f"pipeline{p.get('pipeline', 1)}")
    parts.append(f"window{p.get('window', 1)}")
    conns = p.get("connections", 1); workers = p.get("workers", 1)
    if workers > 1 and workers != conns: parts.append(f"{workers} workers")
    parts.append(f"{conns} client{'' if conns == 1 else 's'}")
    if p.get("resp") == 3: parts.append("RESP3")
    if p.get("auth"): parts.append("auth")
    if "keyspace" in p: parts.append(f"keyspace {p['keyspace']}")
    if p.get("serve"): parts.append("colocated")
    if p.get("insecure"): parts.append("insecure")
    return " · ".join(parts)

WARM = [1]
BUILD = {"driver": "v0.3.0-41-g1c9e2aa", "hiredis": "1.2.0", "openssl": "3.0.15", "libcurl": "7.88.1",
         "jansson": "2.14", "cc": "gcc 12.2.0"}

def ts(t):
    h, rem = divmod(int(t), 3600); m, s = divmod(rem, 60)
    return f"2026-11-20T{h:02d}:{m:02d}:{s:02d}Z"

def result(p, tput, p50, p99, cpu, rss_kib, elapsed, insecure=False, verify=0):
    ops = int(tput * elapsed)
    batches = max(1, ops // p["pipeline"])
    r = {"schema": "pairbench.result/1", "protocol": p["protocol"], "transport": p.get("transport", "tcp"),
         "config": dict(p, host="127.0.0.1", port=40000 + int(tput) % 9000, warmup=WARM[0], duration=round(elapsed)),
         "ops": ops, "batches": batches, "elapsed_s": elapsed,
         "throughput": round(ops / elapsed, 1),
         "unit": "commands/s" if p["protocol"] == "redis" else "round trips/s",
         "latency_us": {"p50": round(p50, 1), "p90": round(p50 * 1.05, 1), "p99": round(p99, 1),
                        "p999": round(p99 * 1.18, 1), "max": round(p99 * 2.4, 1),
                        "mean": round(p50 * 1.01, 1), "samples": batches},
         "errors": {"connect": 0, "io": 0, "protocol": 0, "verify": verify, "timeout": 0},
         "cpu": {"user_s": round(cpu / 100 * elapsed * 0.6, 3), "sys_s": round(cpu / 100 * elapsed * 0.4, 3),
                 "percent": round(cpu, 2)},
         "rss_peak_kib": rss_kib, "build": BUILD}
    if p.get("transport") == "tls":
        r["tls"] = {"version": "TLSv1.3", "cipher": "TLS_AES_256_GCM_SHA384", "insecure": insecure}
    return r

def make(dirname, versions, configs, rounds, model, settings, extra_meta, events=None, server_cpu=None):
    random.seed(os.path.basename(dirname)); WARM[0] = settings["warmup"]
    lines = []
    t = 20 * 3600 + 5 * 60
    pid = 41000
    nv = len(versions)
    for ci, p in enumerate(configs):
        id_ = cid(p)
        for r in range(1, rounds + 1):
            k = (r - 1) % nv
            order = list(range(k, nv)) + list(range(0, k))
            for pos, vi in enumerate(order, 1):
                v = versions[vi]["name"]
                pid += 3
                started = t; t += settings["warmup"] + settings["duration"] + 0.4
                tput, p50, p99, cpu, rss = model(ci, p, vi, r)
                elapsed = round(settings["duration"] + random.uniform(0.0001, 0.004), 4)
                ev = (events or {}).get((ci, vi, r))
                srv = None
                if server_cpu:
                    sc = server_cpu(ci, p, vi, r)
                    if sc is not None:
                        srv = {"pid": pid - 1, "cpu_s": round(sc / 100 * (elapsed + settings["warmup"]), 3)}
                line = {"version": v, "config": id_, "label": label(p), "round": r, "position": pos,
                        "pid": pid, "started": ts(started), "ended": ts(t), "status": "ok", "reason": None,
                        "result": result(p, tput, p50, p99, cpu, rss, elapsed,
                                         insecure=extra_meta.get("insecure", False)),
                        "client": {"cpu_s": round(cpu / 100 * (elapsed + settings["warmup"]), 3),
                                   "rss_peak_kib": rss + 212},
                        "server": srv}
                if ev == "failed":
                    line.update(status="failed", reason="timeout after 8.0 s (SIGTERM, then SIGKILL)",
                                result=None)
                    lines.append(line)
                elif ev == "resumed":
                    bad = dict(line, status="failed", reason="driver exited with status 3", result=None)
                    lines.append(bad)
                    pid += 3
                    lines.append(dict(line, pid=pid))
                else:
                    lines.append(line)
    os.makedirs(dirname, exist_ok=True)
    data = "".join(json.dumps(l, ensure_ascii=False, separators=(',', ':')) + "\n" for l in lines)
    with open(os.path.join(dirname, "runs.jsonl"), "w") as f:
        f.write(data)
    sha = hashlib.sha256(data.encode()).hexdigest()
    meta = {"schema": "pairbench.meta/1", "pairbench": {"version": "v0.3.0-41-g1c9e2aa"},
            "command_line": extra_meta["command_line"], "cwd": "/home/ci/work/project",
            "spec_file": extra_meta["spec_file"], "spec": extra_meta["spec"],
            "grids": extra_meta["grids"], "versions": versions,
            "settings": settings,
            "configs": [{"id": cid(p), "label": label(p), "index": i, "params": p} for i, p in enumerate(configs)],
            "environment": {"machine": "Hetzner CCX23", "cpu_model": "AMD EPYC 7763 64-Core Processor",
                            "cores_physical": 2, "cores_logical": 4, "memory_bytes": 16 * 1024**3 - 512 * 1024**2,
                            "os": "Debian GNU/Linux 12 (bookworm)", "kernel": "6.1.0-27-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)",
                            "arch": "x86_64", "governor": extra_meta.get("governor", "performance"),
                            "loadavg_start": extra_meta.get("load_start", [0.21, 0.35, 0.4]),
                            "loadavg_end": extra_meta.get("load_end", [1.95, 1.7, 1.1]),
                            "affinity": "0-3", "compiler": "gcc 12.2.0", "cflags": "-O2 -g",
                            "libraries": {"openssl": "3.0.15", "libcurl": "7.88.1", "jansson": "2.14", "hiredis": "1.2.0"}},
            "driver_build": {"cc": "gcc 12.2.0", "cflags": "-O2 -g", "hiredis": "1.2.0", "openssl": "3.0.15",
                             "libcurl": "7.88.1", "jansson": "2.14"},
            "started": ts(20 * 3600 + 5 * 60), "ended": ts(t),
            "dataset": {"file": "runs.jsonl", "sha256": sha},
            "sources": extra_meta.get("sources", []),
            "warnings": extra_meta.get("warnings", []), "lang": "en"}
    with open(os.path.join(dirname, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
        f.write("\n")

def noisy(x, pct):
    return x * (1 + random.uniform(-pct, pct) / 100)

# ---------- two versions ----------
two_cfgs = [
    {"protocol": "redis", "transport": "tcp", "command": "ECHO", "payload": 4096, "pipeline": 16, "window": 1, "connections": 4, "workers": 4, "resp": 3},
    {"protocol": "redis", "transport": "tcp", "command": "ECHO", "payload": 1024, "pipeline": 64, "window": 1, "connections": 4, "workers": 4, "resp": 3},
    {"protocol": "tcp", "transport": "tcp", "payload": 64, "pipeline": 1, "window": 16, "connections": 16, "workers": 4, "serve": True},
    {"protocol": "tcp", "transport": "tcp", "payload": 4096, "pipeline": 1, "window": 16, "connections": 16, "workers": 4, "serve": True},
    {"protocol": "http", "transport": "tcp", "payload": 4096, "pipeline": 1, "window": 16, "connections": 16, "workers": 1, "serve": True},
    {"protocol": "ws", "transport": "tcp", "payload": 64, "pipeline": 1, "window": 16, "connections": 16, "workers": 4, "serve": True},
    {"protocol": "ws", "transport": "tcp", "payload": 4096, "pipeline": 1, "window": 16, "connections": 16, "workers": 4, "serve": True},
    {"protocol": "redis", "transport": "tls", "command": "ECHO", "payload": 4096, "pipeline": 16, "window": 1, "connections": 4, "workers": 4, "resp": 3},
]
# (base tput, cand factor, base p50, p99 factor cand, cpu base, cpu cand, rss MiB, noise %)
two_model_p = [
    (97110, 0.9804, 640.0, 1.031, 96.6, 97.7, 9.2, 2.0),
    (415300, 1.071, 598.0, 0.93, 139.0, 138.0, 11.4, 1.2),
    (352000, 1.004, 41.5, 1.01, 181.0, 180.0, 5.1, 1.5),
    (161000, 0.993, 98.0, 1.02, 176.0, 177.0, 6.3, 1.8),
    (58200, 0.99, 271.0, 1.02, 99.0, 99.5, 7.8, 13.0),
    (301000, 0.987, 49.0, 1.015, 187.0, 188.0, 5.6, 1.6),
    (118500, 0.9349, 128.0, 1.1329, 183.0, 181.0, 8.9, 1.1),
    (61800, 1.009, 1010.0, 0.99, 104.0, 103.0, 12.8, 1.9),
]
def two_model(ci, p, vi, r):
    bt, cf, p50, p99f, cb, cc, rss, n = two_model_p[ci]
    f = cf if vi == 1 else 1.0
    tput = noisy(bt * f, n)
    lat = noisy(p50 / f, n * 0.8)
    p99 = noisy(p50 * 1.6 * (p99f if vi == 1 else 1.0), n)
    cpu = noisy(cc if vi == 1 else cb, 0.8)
    rssk = int(noisy(rss * 1024, 0.5))
    return tput, lat, p99, cpu, rssk
def two_server(ci, p, vi, r):
    if p["protocol"] != "redis":
        return None
    return noisy(88.0 if vi == 0 else 86.5, 1.0)

make(sys.argv[1] + "/two-version",
     [{"name": "baseline", "ref": "main", "commit": "3f9c2d41b7e0a6c5d8e9f1a2b3c4d5e6f7a8b9c0",
       "driver": "bin/driver", "server": {"redis": "/opt/kv/base/bin/kv-server --port {port} --save '' --appendonly no"},
       "server_version": "kv-server 7.4.1 (3f9c2d41)"},
      {"name": "candidate", "ref": "pr-1287", "commit": "a41e07c9d2f35b8861c0e4f7a9b2d3c5e6f70812",
       "driver": "bin/driver", "server": {"redis": "/opt/kv/cand/bin/kv-server --port {port} --save '' --appendonly no"},
       "server_version": "kv-server 7.4.1 (a41e07c9)"}],
     two_cfgs, 5, two_model,
     {"runs": 5, "warmup": 1, "duration": 5, "grace": 10, "shard": None, "pin_driver": None, "pin_server": None},
     {"command_line": ["bin/compare", "run", "--spec", "ci/pr-spec.json", "--grid", "grids/pr-gate.json", "--out", "reports/pr-1287"],
      "spec_file": "ci/pr-spec.json", "spec": {"versions": ["baseline", "candidate"], "grids": ["grids/pr-gate.json"], "runs": 5},
      "grids": [{"file": "grids/pr-gate.json", "name": "pr-gate", "sha256": hashlib.sha256(b"pr-gate").hexdigest()}],
      "sources": [{"path": "src/net/conn.c", "sha256": hashlib.sha256(b"conn.c").hexdigest()},
                  {"path": "src/net/ws.c", "sha256": hashlib.sha256(b"ws.c").hexdigest()}]},
     events={(2, 1, 3): "resumed"}, server_cpu=two_server)

# ---------- three versions ----------
cmds = ["SET", "GET", "INCR", "LPUSH", "RPOP", "SADD", "HSET", "SPOP", "ZADD", "MSET",
        "LRANGE_100", "LRANGE_300", "LRANGE_500", "LRANGE_600"]
three_cfgs = [{"protocol": "redis", "transport": "tcp", "command": c, "payload": 64, "pipeline": 16, "window": 1,
               "connections": 50, "workers": 2, "keyspace": 100000, "resp": 2} for c in cmds]
base_rates = [1450000, 1720000, 1610000, 1380000, 1500000, 1410000, 1220000, 1650000, 1010000, 290000,
              98000, 36500, 23800, 19900]
facts = {1: [1.02, 0.99, 1.01, 0.97, 1.0, 1.03, 0.98, 1.01, 1.0, 1.12, 1.01, 0.99, 1.0, 1.0],
         2: [0.83, 0.86, 0.9, 0.88, 0.91, 0.87, 0.89, 0.92, 0.95, 1.01, 1.0, 1.02, 1.01, 0.99]}
def three_model(ci, p, vi, r):
    f = facts[vi][ci] if vi else 1.0
    tput = noisy(base_rates[ci] * f, 1.5)
    p50 = noisy(50 * 16 / (base_rates[ci] / 1e6) / f, 1.2)
    p99 = noisy(p50 * 1.9, 3.0)
    cpu = noisy(178.0 + vi * 3, 1.0)
    rss = int(noisy((5.4 + ci * 0.05) * 1024, 0.4))
    return tput, p50, p99, cpu, rss
def three_server(ci, p, vi, r):
    return noisy([99.0, 99.4, 140.0][vi], 1.0)
make(sys.argv[1] + "/three-version",
     [{"name": "recached", "ref": "v0.9.0", "commit": "9b1f0c7e2d3a4b5c6d7e8f90a1b2c3d4e5f60718", "driver": "bin/driver",
       "server": {"redis": "recached --port {port}"}, "server_version": "recached 0.9.0"},
      {"name": "redis-7.2.5", "ref": None, "commit": None, "driver": "bin/driver",
       "server": {"redis": "redis-server --port {port} --save '' --appendonly no"}, "server_version": "Redis server v=7.2.5 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64"},
      {"name": "valkey-9.1.0", "ref": None, "commit": None, "driver": "bin/driver",
       "server": {"redis": "valkey-server --port {port} --save '' --appendonly no --io-threads 2"}, "server_version": "Valkey server v=9.1.0 malloc=jemalloc-5.3.0 bits=64"}],
     three_cfgs, 3, three_model,
     {"runs": 3, "warmup": 0.5, "duration": 2, "grace": 10, "shard": None, "pin_driver": "0-1", "pin_server": "2-3"},
     {"command_line": ["bin/compare", "run", "--spec", "specs/three servers.json", "--runs", "3", "--warmup", "0.5", "--duration", "2"],
      "spec_file": "specs/three servers.json", "spec": {"versions": ["recached", "redis-7.2.5", "valkey-9.1.0"]},
      "grids": [{"file": "grids/redis-suite.json", "name": "redis-suite", "sha256": hashlib.sha256(b"suite").hexdigest()}],
      "warnings": ["the machine was loaded at start: load average 2.3 on 4 CPUs"],
      "load_start": [2.3, 1.2, 0.8]},
     events={(13, 2, 2): "failed"}, server_cpu=three_server)

# ---------- one version ----------
one_cfgs = []
for transport in ["tcp", "tls"]:
    for payload in [1024, 16384]:
        for pipe, win in [(1, 1), (4, 4), (64, 4)]:
            one_cfgs.append({"protocol": "redis", "transport": transport, "command": "ECHO", "payload": payload,
                             "pipeline": pipe, "window": win, "connections": 4, "workers": 4, "resp": 3, "auth": True, **({"insecure": True} if transport == "tls" else {})})
def one_model(ci, p, vi, r):
    base = {(1, 1): 94000, (4, 4): 415000, (64, 4): 690000}[(p["pipeline"], p["window"])]
    if p["payload"] == 16384:
        base *= 0.12 if p["pipeline"] == 64 else 0.35
    if p["transport"] == "tls":
        base *= 0.62
    tput = noisy(base, 2.0)
    inflight = 4 * p["pipeline"] * p["window"]
    p50 = noisy(inflight / base * 1e6 / p["window"] * 1.0 + 2, 1.5)
    p99 = noisy(p50 * 1.7, 3)
    cpu = noisy(139.0 if p["transport"] == "tcp" else 171.0, 1.5)
    rss = int(noisy(9 * 1024 + p["payload"] * p["pipeline"] * p["window"] * 4 * 2 / 1024 * 3, 0.5))
    return tput, p50, p99, cpu, rss
make(sys.argv[1] + "/one-version",
     [{"name": "valkey-8.0", "ref": None, "commit": None, "driver": "bin/driver",
       "server": {"redis": "valkey-server --port {port} --tls-port 0 --save '' --appendonly no"},
       "server_version": "Valkey server v=8.0.11 malloc=jemalloc-5.3.0 bits=64"}],
     one_cfgs, 3, one_model,
     {"runs": 3, "warmup": 0.15, "duration": 1, "grace": 10, "shard": None, "pin_driver": None, "pin_server": None},
     {"command_line": ["bin/compare", "run", "--spec", "specs/valkey.json", "--lang", "en"],
      "spec_file": "specs/valkey.json", "spec": {"versions": ["valkey-8.0"]},
      "grids": [{"file": "grids/database.json", "name": "database", "sha256": hashlib.sha256(b"db").hexdigest()}],
      "insecure": True, "governor": "powersave",
      "warnings": ["CPU frequency governor is 'powersave', not 'performance'"]})
