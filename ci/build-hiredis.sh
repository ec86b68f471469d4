#!/bin/sh
# Builds hiredis >= 1.0 (RESP3) into a local prefix (default .deps) from Debian's trixie
# source package, for systems whose own hiredis is older (Debian 12 ships 0.14.1). Needs no
# root: `apt-get source` only downloads, given a deb-src entry for trixie (ci/install-deps.sh
# adds it). The Makefile runs this only when pkg-config finds no system hiredis >= 1.0.
# Usage: sh ci/build-hiredis.sh [PREFIX]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$here/.deps}
log() { printf 'build-hiredis: %s\n' "$*" >&2; }

if PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --atleast-version=1.0.0 hiredis 2>/dev/null &&
    [ -f "$prefix/lib/libhiredis.a" ]; then
    exit 0
fi
command -v apt-get >/dev/null 2>&1 || { log "apt-get not found: install hiredis >= 1.0 (with its .pc file) and run make again"; exit 3; }
command -v dpkg-source >/dev/null 2>&1 || { log "dpkg-source not found: install dpkg-dev (as root: sh ci/install-deps.sh)"; exit 3; }
log "building hiredis from Debian's trixie source package into $prefix"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && { apt-get source -qq hiredis/trixie >/dev/null 2>&1 ||
    apt-get source -qq -t trixie hiredis >/dev/null 2>&1; }); then
    log "apt-get source hiredis/trixie failed: no deb-src entry for trixie? As root, run"
    log "  sh ci/install-deps.sh   (it adds one that reuses this machine's Debian mirror)"
    exit 3
fi
src=$(find "$work" -maxdepth 1 -type d -name 'hiredis-*' | head -n 1)
[ -n "$src" ] || { log "apt-get source hiredis gave no source tree"; exit 3; }
# hiredis's Makefile installs into $(LIBRARY_PATH), which some environments set: override it.
make -C "$src" -s -j2 USE_SSL=1 PREFIX="$prefix" LIBRARY_PATH=lib >/dev/null
make -C "$src" -s install USE_SSL=1 PREFIX="$prefix" LIBRARY_PATH=lib >/dev/null
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --atleast-version=1.0.0 hiredis ||
    { log "hiredis build in $prefix is not >= 1.0"; exit 3; }
log "ok: hiredis $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --modversion hiredis) in $prefix"
