#!/bin/sh
# Installs what pairbench needs to build and test on Debian 12, as root. Idempotent: a second
# run changes nothing. Every apt source it adds reuses the mirror URI already configured on
# this machine, so no registry host name is written here.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
prefix="$here/.deps"        # local, git-ignored prefix for hiredis >= 1.0
export DEBIAN_FRONTEND=noninteractive

log() { printf 'install-deps: %s\n' "$*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
    log "must run as root (it calls apt-get)"
    exit 2
fi

# The URI of the first configured Debian archive (deb822 or one-line format).
mirror_uri() {
    uri=""
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        uri=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' "$f")
        [ -n "$uri" ] && break
    done
    if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
        uri=$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' /etc/apt/sources.list)
    fi
    [ -n "$uri" ] || { log "no Debian mirror URI found in /etc/apt/sources.list{,.d}"; exit 3; }
    printf '%s\n' "$uri"
}

uri=$(mirror_uri)
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
changed=0

add_source() { # file content
    if [ ! -f "$1" ] || [ "$(cat "$1")" != "$2" ]; then
        printf '%s\n' "$2" > "$1"
        changed=1
    fi
}

add_source /etc/apt/sources.list.d/pairbench-backports.sources "Types: deb
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: $keyring"

# Source packages only (no binaries) from the next release, for hiredis 1.2.0.
add_source /etc/apt/sources.list.d/pairbench-src.sources "Types: deb-src
URIs: $uri
Suites: trixie
Components: main
Signed-By: $keyring"

stamp=/var/lib/apt/periodic/pairbench-update-stamp
if [ "$changed" = 1 ] || [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +360 2>/dev/null)" ]; then
    log "apt-get update"
    apt-get update -qq
    mkdir -p "$(dirname "$stamp")" && touch "$stamp"
fi

pkgs="build-essential pkg-config clang llvm libclang-rt-14-dev clang-format clang-tidy cppcheck
 valgrind strace dpkg-dev git ca-certificates openssl python3
 libssl-dev libjansson-dev libcurl4-openssl-dev libhiredis-dev
 redis-server redis-tools nginx-light socat wrk curl nodejs chromium fonts-wqy-microhei"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    log "installing:$missing"
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
for p in valkey-server valkey-tools; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
        log "installing $p from bookworm-backports"
        apt-get install -y -qq --no-install-recommends -t bookworm-backports "$p" >/dev/null
    fi
done
# Packages install services that start on default ports; tests start their own servers.
for s in redis-server valkey-server nginx; do
    if command -v service >/dev/null 2>&1; then service "$s" stop >/dev/null 2>&1 || true; fi
done

# npm is not packaged with every nodejs build; Debian's npm is used only when missing.
if ! command -v npm >/dev/null 2>&1; then
    apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
if [ ! -d "$here/tests/node_modules/ws" ]; then
    log "npm ci (tests/: ws)"
    (cd "$here/tests" && npm ci --no-audit --no-fund --silent)
fi

# hiredis >= 1.0 (RESP3). Debian 12 ships 0.14.1: build Debian's 1.2.0 source into .deps.
if ! PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --atleast-version=1.0.0 hiredis 2>/dev/null; then
    log "building hiredis from Debian's trixie source package into $prefix"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    (cd "$work" && apt-get source -qq hiredis/trixie >/dev/null 2>&1) ||
        (cd "$work" && apt-get source -qq -t trixie hiredis >/dev/null)
    src=$(find "$work" -maxdepth 1 -type d -name 'hiredis-*' | head -n 1)
    [ -n "$src" ] || { log "apt-get source hiredis gave no source tree"; exit 3; }
    # hiredis's Makefile installs into $(LIBRARY_PATH), which this environment sets: override it.
    make -C "$src" -s -j2 USE_SSL=1 PREFIX="$prefix" LIBRARY_PATH=lib >/dev/null
    make -C "$src" -s install USE_SSL=1 PREFIX="$prefix" LIBRARY_PATH=lib >/dev/null
    PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --atleast-version=1.0.0 hiredis ||
        { log "hiredis build in $prefix is not >= 1.0"; exit 3; }
fi
log "ok: hiredis $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --modversion hiredis) in $prefix"
