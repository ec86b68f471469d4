#!/bin/sh
# pairbench-test: untimed
# The differential flame graph of report.html in headless Chromium: a counted run of the
# reference server against the same server with extra work per request (`driver serve --work`,
# a loop inlined into the function that parses requests) renders one inline SVG per candidate
# from the folded stacks; Chromium loads the page with no console error, no request and no
# script; a screenshot is a real PNG holding the graph's red frames (decoded here, more than
# one colour); the SVG names the function whose own instructions changed most — the one the
# folded files themselves say, a function of the driver — and each frame's <title> gives both
# figures and the change. --lang zh renders the same graph in Chinese.
# Cost: about 30 s (2 timed, 2 valgrind rounds, 2 Chromium loads).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/html_lib.sh"
need valgrind
need nm

serve_driver=$(valgrind_driver)
[ -n "$serve_driver" ] || skip "no plain build of the driver to run under valgrind"
srv="$serve_driver serve tcp --port {port}"
echo '{"name": "t", "defaults": {"protocol": "tcp", "connections": 1}}' > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "plain", "server": {"tcp": "$srv"}},
              {"name": "work", "server": {"tcp": "$srv --work 400"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"source": "valgrind", "runs": 1, "requests": 500, "warmup_requests": 50, "idle_s": 0.1}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/o" > /dev/null 2> "$T/err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; fail "compare run exited $rc"; }
page=$T/o/report.html
assert_eq "$(grep -c '<section id="flame">' "$page")" 1 "flame sections"
assert_eq "$(grep -c '<figure class="flame">' "$page")" 1 "flame graphs (one candidate)"

# the function whose own (self) instructions per operation changed most, from the files
expected=$(awk '
    { sign = FNR == NR ? -1 : 1; path = substr($0, 1, length($0) - length($NF) - 1)
      n = split(path, p, ";"); d[p[n]] += sign * $NF }
    END { for (k in d) { a = d[k] < 0 ? -d[k] : d[k]; if (a > best) { best = a; name = k } } print name }' \
    "$T"/o/flame/*.plain.folded "$T"/o/flame/*.work.folded)
[ -n "$expected" ] || fail "no function changed in the folded files"
nm "$serve_driver" | grep -q " [tT] $expected\$" || fail "'$expected' is not a function of the driver"
grep -q "<text class=\"most\"[^>]*>Changed most in its own instructions: $expected (+" "$page" ||
    fail "the SVG does not name '$expected' as changed most: $(grep -o '<text class="most"[^<]*' "$page")"
# every frame has a tooltip with both figures and the change; the changed frame is red
grep -q "<title>$expected: [0-9.]* → [0-9.]* instructions per operation (+[0-9.]*%)</title><rect [^>]*fill=\"rgb(240," "$page" ||
    fail "no red frame with both figures for '$expected'"
frames=$(grep -c '^<g><title>' "$page")
[ "$frames" -ge 5 ] || fail "only $frames frames drawn"

# Chromium: a clean page, and the graph in the screenshot
html_check "$T/check.jsonl" "$page" || true
node -e '
const fs = require("fs");
for (const l of fs.readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean)) {
  const r = JSON.parse(l);
  for (const e of r.errors.concat(r.requests)) console.log(e);
  if (r.scripts) console.log(r.scripts + " script elements");
}' "$T/check.jsonl" > "$T/problems"
[ ! -s "$T/problems" ] || fail "report.html in Chromium: $(cat "$T/problems")"
grep -q '<figure class="flame">' "$T/dom/report.html.dom" || fail "no flame graph in Chromium's DOM"
chromium_run --screenshot="$T/shot.png" --window-size=1200,9000 "file://$page" > /dev/null ||
    fail "chromium --screenshot failed: $(tail -n 3 "$T/chromium.err")"
assert_png "$T/shot.png"
# decode the PNG (8-bit RGB/RGBA, the five filters): its colours, and the red of a frame
colours=$(node -e '
const zlib = require("zlib"), b = require("fs").readFileSync(process.argv[1]);
let o = 8, w, h, ct, idat = [];
while (o < b.length) {
  const n = b.readUInt32BE(o), t = b.toString("latin1", o + 4, o + 8), d = b.subarray(o + 8, o + 8 + n);
  if (t === "IHDR") { w = d.readUInt32BE(0); h = d.readUInt32BE(4); ct = d[9]; if (d[8] !== 8) throw "depth"; }
  if (t === "IDAT") idat.push(d);
  o += 12 + n;
}
const bpp = ct === 6 ? 4 : ct === 2 ? 3 : 0; if (!bpp) throw "colour type " + ct;
const raw = zlib.inflateSync(Buffer.concat(idat)), stride = w * bpp, px = Buffer.alloc(h * stride);
const seen = new Set(); let red = 0;
for (let y = 0; y < h; y++) {
  const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1, row = y * stride;
  for (let x = 0; x < stride; x++) {
    const a = x >= bpp ? px[row + x - bpp] : 0, u = y ? px[row - stride + x] : 0, c = x >= bpp && y ? px[row - stride + x - bpp] : 0;
    let p = raw[src + x];
    if (f === 1) p += a; else if (f === 2) p += u; else if (f === 3) p += (a + u) >> 1;
    else if (f === 4) { const q = a + u - c, pa = Math.abs(q - a), pb = Math.abs(q - u), pc = Math.abs(q - c); p += pa <= pb && pa <= pc ? a : pb <= pc ? u : c; }
    px[row + x] = p & 255;
  }
  for (let x = 0; x < w; x++) {
    const i = row + x * bpp, r = px[i], g = px[i + 1], bl = px[i + 2];
    seen.add((r << 16) | (g << 8) | bl);
    if (r === 240 && g < 200 && g === bl) red++;
  }
}
console.log(seen.size + " " + red);' "$T/shot.png") || fail "cannot decode the screenshot"
n_colours=${colours% *}
n_red=${colours#* }
[ "$n_colours" -gt 1 ] || fail "the screenshot has $n_colours colour"
[ "$n_red" -gt 100 ] || fail "the screenshot shows no red frame ($n_red pixels)"

# Chinese: the same graph, its sentences from the string table
"$COMPARE" report --lang zh "$T/o" > /dev/null 2>> "$T/err" || fail "compare report --lang zh failed"
grep -q "<text class=\"most\"[^>]*>自身指令变化最大：$expected（每次操作 +" "$page" ||
    fail "the Chinese page does not name '$expected'"
echo "ok: $frames frames, changed most $expected, screenshot $n_colours colours, $n_red red pixels"
