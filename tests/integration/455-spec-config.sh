#!/bin/sh
# pairbench-test: untimed
# Servers configured by file (spec "config", docs/nginx.md): the shipped specs run as shipped
# from the repository root, briefly - specs/nginx-sendfile.json (stock nginx, two templates)
# and specs/redis-conf.json (one redis.conf template, a command-line override): every run ok;
# each run's rendered file is kept in OUT/server-configs with its SHA-256 in the run's line,
# the run's port and directory filled in and no known placeholder left; meta.json has each
# version's template and its SHA-256. The command of docs/nginx.md runs as written (shortened
# by --runs/--duration). A template that cannot be read, and a command with neither {port}
# nor {conf}, are refused before anything runs (exit 2, naming the key).
# Cost: about 20 s (3 compare runs of 0.3 s windows).
. "$(dirname "$0")/../lib.sh"
need nginx
need redis-server
need node
need sha256sum
short="--runs 2 --warmup 0 --duration 0.3"

# check_run OUT SPEC: every run ok, the kept files match their lines, meta.json the templates
check_run() {
    out=$1; spec=$2
    assert_eq "$(json_get "$out/summary.json" 'this.rows.every(r => r.status === "ok")')" true \
        "$spec: every row ok"
    node -e '
const fs = require("fs"), crypto = require("crypto"), path = require("path");
const [out, top] = process.argv.slice(1);
const sha = (f) => crypto.createHash("sha256").update(fs.readFileSync(f)).digest("hex");
const meta = JSON.parse(fs.readFileSync(path.join(out, "meta.json"), "utf8"));
for (const v of meta.versions) {
  if (!v.config || v.config.sha256 !== sha(path.join(top, v.config.template)))
    throw new Error("meta.json: version " + v.name + " config " + JSON.stringify(v.config));
}
const lines = fs.readFileSync(path.join(out, "runs.jsonl"), "utf8").trim().split("\n").map(JSON.parse);
const runs = lines.filter((l) => !l.kind);
if (runs.length === 0) throw new Error("no runs");
for (const l of runs) {
  if (l.status !== "ok") throw new Error("run not ok: " + l.reason);
  const c = l.server && l.server.config;
  if (!c) throw new Error("run without server.config");
  const f = path.join(out, c.file), text = fs.readFileSync(f, "utf8");
  if (sha(f) !== c.sha256) throw new Error(c.file + ": sha256 differs from the line");
  const port = String(l.result.config.port);
  if (!text.includes(port)) throw new Error(c.file + ": the run port " + port + " is not in it");
  if (/\{(port|host|dir|conf|cert|key|cacert|tree)\}/.test(text))
    throw new Error(c.file + ": a placeholder is left");
}
console.log(runs.length + " runs, " + new Set(runs.map((l) => l.server.config.file)).size + " kept files");
' "$out" "$TOP" || fail "$spec: rendered configuration files"
}

for s in nginx-sendfile redis-conf; do
    (cd "$TOP" && "$COMPARE" run --spec "specs/$s.json" $short --out "$T/$s") \
        > "$T/$s.out" 2> "$T/$s.err" || fail "specs/$s.json: exit $?: $(tail -3 "$T/$s.err")"
    check_run "$T/$s" "specs/$s.json"
done
grep -q "keepalive_requests" "$TOP/specs/nginx-sendfile-on.conf.in" &&
    ! grep -q "^ *keepalive_requests" "$TOP/specs/nginx-sendfile-on.conf.in" ||
    fail "the nginx template must keep nginx's default keepalive_requests"

# docs/nginx.md: its command, as written, with the run made short and kept in $T
cmds=$(sed -n '/^```sh$/,/^```$/p' "$TOP/docs/nginx.md" | grep '^bin/compare')
assert_eq "$cmds" "bin/compare run --spec specs/nginx-sendfile.json --out reports/nginx-sendfile" \
    "the command of docs/nginx.md"
(cd "$TOP" && eval "$(printf '%s' "$cmds" | sed "s|^bin/compare|\"\$COMPARE\"|; s|--out reports/nginx-sendfile|--out \"\$T/docs\"|") $short") \
    > "$T/docs.out" 2> "$T/docs.err" || fail "docs/nginx.md's command: $(tail -3 "$T/docs.err")"
check_run "$T/docs" "docs/nginx.md"

# refusals, before any run
cd "$T"
echo '{"name": "g", "defaults": {"protocol": "http", "path": "/"}}' > g.json
cat > missing.json <<JSON
{"versions": [{"name": "a", "config": "nope.conf.in", "server": {"http": "nginx -c {conf}"}}], "grids": ["g.json"]}
JSON
assert_exit 2 "$COMPARE" run --spec missing.json --out r1 2> e1
grep -q "missing.json: \$.versions\[0\].config: cannot read template 'nope.conf.in'" e1 ||
    fail "a missing template: $(cat e1)"
printf 'listen 80;\n' > noport.conf.in
cat > noport.json <<JSON
{"versions": [{"name": "a", "config": "noport.conf.in", "server": {"http": "nginx -c {conf}"}}], "grids": ["g.json"]}
JSON
assert_exit 2 "$COMPARE" run --spec noport.json --out r2 2> e2
grep -q "expected a command with the {port} placeholder, or {conf} with {port} in the version's config template" e2 ||
    fail "no {port} anywhere: $(cat e2)"
[ ! -e r1/runs.jsonl ] && [ ! -e r2/runs.jsonl ] || fail "a refused spec ran"
echo "455-spec-config: ok"
