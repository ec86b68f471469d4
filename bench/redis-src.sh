#!/bin/sh
# Builds Debian's own redis source package (bookworm) twice into a cache directory: as
# shipped (redis-a) and with a small extra cost on the SET path (redis-b: a loop of ~100
# instructions per SET in setCommand, about 1.5% of a SET's instructions under valgrind).
# The deb-src entry reuses the mirror URI already configured on the machine (as
# ci/install-deps.sh does); no host name is written here. Prints the cache directory.
# Usage: sh bench/redis-src.sh [CACHE_DIR]   (default /tmp/pairbench-redis-src)
set -eu
cache=${1:-/tmp/pairbench-redis-src}
log() { printf 'redis-src: %s\n' "$*" >&2; }
mkdir -p "$cache"
if [ -x "$cache/redis-a/src/redis-server" ] && [ -x "$cache/redis-b/src/redis-server" ]; then
    printf '%s\n' "$cache"
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
    # upstream's tree (its bundled deps) without Debian's patches to use system libraries
    dpkg-source --skip-patches -x "$dsc" "$cache/orig" >/dev/null
fi
build() { # dir
    log "building $1 (a few minutes on 2 cores)"
    make -C "$1" -j2 MALLOC=libc BUILD_TLS=no >"$1.build.log" 2>&1 ||
        { log "build of $1 failed: see $1.build.log"; exit 3; }
}
for v in a b; do
    [ -d "$cache/redis-$v" ] || cp -a "$cache/orig" "$cache/redis-$v"
done
if ! grep -q pairbench_extra "$cache/redis-b/src/t_string.c"; then
    # the extra cost: a loop the compiler cannot drop, on every SET
    awk '{print} /^void setCommand\(client \*c\) \{/ && !done {print "    { static volatile unsigned pairbench_extra; for (int i = 0; i < 25; i++) pairbench_extra += i; }"; done=1}' \
        "$cache/redis-b/src/t_string.c" > "$cache/t_string.c" && mv "$cache/t_string.c" "$cache/redis-b/src/t_string.c"
    grep -q pairbench_extra "$cache/redis-b/src/t_string.c" || { log "setCommand not found"; exit 3; }
fi
[ -x "$cache/redis-a/src/redis-server" ] || build "$cache/redis-a"
[ -x "$cache/redis-b/src/redis-server" ] || build "$cache/redis-b"
printf '%s\n' "$cache"
