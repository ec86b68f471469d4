#!/bin/sh
# Makes a git repository of Debian's own redis source package (bookworm) for `compare commits`:
# HEAD~1 is the source as shipped (upstream's tree with its bundled dependencies, without
# Debian's patches to use system libraries), HEAD adds a small extra cost on the SET path (a
# loop of about 120 instructions per SET in setCommand, about 2% of a SET's instructions
# under valgrind: enough to stay past the 1% threshold when redis's per-process hash seed moves
# a SET by up to ±0.8%). The deb-src entry reuses the mirror URI already configured on the
# machine (as ci/install-deps.sh does); no host name is written here. Builds are left to
# `compare commits --build "$(sh bench/redis-src.sh --build-cmd)"`, which caches them by SHA.
# EXTRA_LOOPS (20) sets the loop's length: 3 makes about 20 instructions per SET (+0.3%, the
# exact counts' detection target; use another CACHE_DIR for it).
# Prints the repository's directory.
# --history makes instead a history of 8 commits for `compare bisect` (in CACHE_DIR/history):
# commit 1 is the source as shipped (the same commit as the two-commit repository's HEAD~1,
# so its build is shared), commits 2-5 and 7-8 each add a comment to a different source file,
# commit 6 adds the same SET cost as above. `compare bisect --good HEAD~7 --bad HEAD` on it
# builds 5 of the 8 commits (good, bad and 3 steps).
# Usage: sh bench/redis-src.sh [--history] [CACHE_DIR]   (default /tmp/pairbench-redis-src)
#        sh bench/redis-src.sh --build-cmd   (prints the build command: through ccache when
#        it is installed, so the commits of a history, which differ in one file each, compile
#        only that file and release.c again)
set -eu
build_cmd='make -j2 MALLOC=libc BUILD_TLS=no'
if command -v ccache > /dev/null 2>&1; then
    build_cmd="CCACHE_BASEDIR=/ CCACHE_NOHASHDIR=1 $build_cmd CC='ccache cc'"
fi
if [ "${1:-}" = --build-cmd ]; then
    printf '%s\n' "$build_cmd"
    exit 0
fi
history=0
if [ "${1:-}" = --history ]; then
    history=1
    shift
fi
cache=${1:-/tmp/pairbench-redis-src}
repo=$cache/repo
[ $history -eq 0 ] || repo=$cache/history
log() { printf 'redis-src: %s\n' "$*" >&2; }
mkdir -p "$cache"
done_file=$cache/repo.done
[ $history -eq 0 ] || done_file=$cache/history.done
if [ -f "$done_file" ]; then
    printf '%s\n' "$repo"
    exit 0
fi
src_list=/etc/apt/sources.list.d/pairbench-bookworm-src.sources
if [ ! -f "$src_list" ]; then
    uri=""
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        uri=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' "$f")
        [ -n "$uri" ] && break
    done
    [ -n "$uri" ] || { log "no Debian mirror URI found in /etc/apt/sources.list.d"; exit 3; }
    printf 'Types: deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$uri" > "$src_list"
    apt-get update -qq
fi
if [ ! -d "$cache/orig" ]; then
    rm -rf "$cache/dl" && mkdir -p "$cache/dl"
    (cd "$cache/dl" && apt-get source -qq --download-only redis/bookworm >/dev/null)
    dsc=$(ls "$cache"/dl/redis_*.dsc | head -n 1)
    dpkg-source --skip-patches -x "$dsc" "$cache/orig" >/dev/null
fi
rm -rf "$repo"
cp -a "$cache/orig" "$repo"
rm -rf "$repo/debian" # packaging, not the server
# fixed names and dates: the same source makes the same commits (and reuses their builds)
export GIT_AUTHOR_DATE='2026-12-01T00:00:00Z' GIT_COMMITTER_DATE='2026-12-01T00:00:00Z'
g() { git -C "$repo" -c user.name=pairbench -c user.email=bench@example.invalid "$@"; }
g init -q .
g add -A && g commit -q -m "redis as shipped by Debian (bookworm), without Debian's patches"
# --history: commits 2-5 each a comment in one file, then the SET cost, then two more
harmless() {
    printf '/* pairbench history: %s */\n' "$2" >> "$repo/src/$1"
    g commit -q -am "$1: a comment ($2)"
}
if [ $history -eq 1 ]; then
    harmless t_list.c "commit 2"
    harmless t_hash.c "commit 3"
    harmless t_set.c "commit 4"
    harmless t_zset.c "commit 5"
fi
# the extra cost: a loop the compiler cannot drop, on every SET
loops=${EXTRA_LOOPS:-20}
case $loops in '' | *[!0-9]*) log "EXTRA_LOOPS '$loops': expected a whole number"; exit 2 ;; esac
awk -v n="$loops" '{print} /^void setCommand\(client \*c\) \{/ && !done {print "    { static volatile unsigned pairbench_extra; for (int i = 0; i < " n "; i++) pairbench_extra += i; }"; done=1}' \
    "$repo/src/t_string.c" > "$cache/t_string.c" && mv "$cache/t_string.c" "$repo/src/t_string.c"
grep -q pairbench_extra "$repo/src/t_string.c" || { log "setCommand not found in src/t_string.c"; exit 3; }
g commit -q -am "SET: a loop of $loops extra iterations per call in setCommand"
if [ $history -eq 1 ]; then
    harmless object.c "commit 7"
    harmless t_stream.c "commit 8"
fi
touch "$done_file"
printf '%s\n' "$repo"
