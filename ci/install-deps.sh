#!/bin/sh
# What pairbench needs on Debian 12, split in two:
#   sh ci/install-deps.sh           runtime: build pairbench (`make`) and run `compare demo`
#   sh ci/install-deps.sh --test    also the test toolchain (`make test`, `make check`)
#   sh ci/install-deps.sh --check   install nothing: say what is missing (exit 1 if anything)
# As root it installs what is missing and prints every package, apt source and file it adds.
# As another user it checks (like --check) and names the command to run as root. Idempotent: a
# second run adds nothing. It stops only the services of packages it has just installed (they
# start on default ports); services that were already there are left alone, except munge,
# slurmctld and slurmd, which are stopped and disabled whenever they run or are enabled
# (keep them with PAIRBENCH_KEEP_SLURM_SERVICES=1). Every apt source it adds reuses the
# mirror URI already configured here, so no registry host name is written.
# Exit: 0 everything present (or installed), 1 something missing (check mode), 2 bad usage,
# 3 an install step failed.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive
log() { printf 'install-deps: %s\n' "$*" >&2; }

test_too=0; check=0
for a in "$@"; do
    case "$a" in
    --test) test_too=1 ;;
    --check) check=1 ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) log "unknown argument '$a' (expected --test, --check or --help)"; exit 2 ;;
    esac
done
[ "$(id -u)" -eq 0 ] || check=1

runtime_pkgs="build-essential pkg-config git ca-certificates dpkg-dev libssl-dev libjansson-dev
 libcurl4-openssl-dev libnghttp2-dev redis-server"
# linux-perf: perf, which test 660 uses for its hardware-counter run where counters exist;
# slurmctld slurmd slurm-client munge: the one-node cluster test 945 runs ci/slurm/shards.sh on;
# haproxy: specs/haproxy-close.json (a proxy in front of the reference server), test 457;
# openssh-server, iproute2: the sshd test 776 runs on its own port and keys inside a network
# namespace (ip netns, tc), never as the system service (stopped and disabled below)
test_pkgs="clang llvm libclang-rt-14-dev clang-format clang-tidy cppcheck valgrind strace
 python3 python3-yaml openssl curl redis-tools nginx-light socat wrk nghttp2-client nodejs
 chromium fonts-wqy-microhei man-db groff-base linux-perf slurmctld slurmd slurm-client munge
 haproxy openssh-server openssh-client iproute2"
backport_pkgs="valkey-server"          # Debian 12 has valkey only in bookworm-backports
[ "$test_too" = 1 ] && backport_pkgs="$backport_pkgs valkey-tools"
want="$runtime_pkgs"
[ "$test_too" = 1 ] && want="$want $test_pkgs"

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
missing_of() { for p in "$@"; do installed "$p" || printf ' %s' "$p"; done; }
missing=$(missing_of $want)
missing_bp=$(missing_of $backport_pkgs)
need_npm=0; need_ws=0
if [ "$test_too" = 1 ]; then
    command -v npm >/dev/null 2>&1 || need_npm=1
    [ -d "$here/tests/node_modules/ws" ] || need_ws=1
fi
# hiredis >= 1.0 (RESP3): the system's if pkg-config finds one, else .deps (ci/build-hiredis.sh)
need_hiredis=1
if pkg-config --atleast-version=1.0.0 hiredis 2>/dev/null ||
    { PKG_CONFIG_PATH="$here/.deps/lib/pkgconfig" pkg-config --atleast-version=1.0.0 hiredis 2>/dev/null &&
      [ -f "$here/.deps/lib/libhiredis.a" ]; }; then
    need_hiredis=0
fi

if [ "$check" = 1 ]; then
    all="$missing$missing_bp"
    [ "$need_npm" = 1 ] && all="$all npm"
    flag=""; [ "$test_too" = 1 ] && flag=" --test"
    if [ -n "$all" ]; then
        log "missing Debian packages:$all"
        log "install them as root with:  sh ci/install-deps.sh$flag"
        [ "$need_ws" = 1 ] && log "and the tests' WebSocket peer:  (cd tests && npm ci)"
        exit 1
    fi
    if [ "$need_ws" = 1 ]; then
        log "missing the tests' WebSocket peer: run  (cd tests && npm ci)"
        exit 1
    fi
    [ "$need_hiredis" = 1 ] &&
        log "no hiredis >= 1.0 on this system: make builds Debian's 1.2.0 source into .deps (no root needed)"
    log "ok: every${flag:+ test and} runtime package is present"
    exit 0
fi

# The URI of the first configured Debian archive (deb822 or one-line format).
mirror_uri() {
    uri=""
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        case "$f" in */pairbench-*) continue ;; esac
        uri=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' "$f")
        [ -n "$uri" ] && break
    done
    if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
        uri=$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' /etc/apt/sources.list)
    fi
    [ -n "$uri" ] || { log "no Debian mirror URI found in /etc/apt/sources.list{,.d}"; exit 3; }
    printf '%s\n' "$uri"
}

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
changed=0
add_source() { # file content
    if [ ! -f "$1" ] || [ "$(cat "$1")" != "$2" ]; then
        log "adding apt source $1 ($(printf '%s' "$2" | awk '/^Suites:/ {print $2}'), mirror $uri)"
        printf '%s\n' "$2" > "$1"
        changed=1
    fi
}
if [ -n "$missing_bp" ] || [ "$need_hiredis" = 1 ]; then
    uri=$(mirror_uri)
    [ -n "$missing_bp" ] && add_source /etc/apt/sources.list.d/pairbench-backports.sources "Types: deb
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: $keyring"
    # Source packages only (no binaries) from the next release, for hiredis 1.2.0.
    [ "$need_hiredis" = 1 ] && add_source /etc/apt/sources.list.d/pairbench-src.sources "Types: deb-src
URIs: $uri
Suites: trixie
Components: main
Signed-By: $keyring"
fi

stamp=/var/lib/apt/periodic/pairbench-update-stamp
if [ -n "$missing$missing_bp" ] || [ "$need_npm" = 1 ] || [ "$need_hiredis" = 1 ]; then
    if [ "$changed" = 1 ] || [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +360 2>/dev/null)" ]; then
        log "apt-get update"
        apt-get update -qq
        mkdir -p "$(dirname "$stamp")" && touch "$stamp"
    fi
fi

# Services whose packages this run installs: only those are stopped afterwards.
fresh_services=""
for pair in redis-server:redis-server valkey-server:valkey-server nginx-light:nginx \
    munge:munge slurmctld:slurmctld slurmd:slurmd haproxy:haproxy openssh-server:ssh; do
    case " $missing $missing_bp " in *" ${pair%%:*} "*) fresh_services="$fresh_services ${pair#*:}" ;; esac
done
if [ -n "$missing" ]; then
    log "installing:$missing"
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [ -n "$missing_bp" ]; then
    log "installing from bookworm-backports:$missing_bp"
    apt-get install -y -qq --no-install-recommends -t bookworm-backports $missing_bp >/dev/null
fi
for s in $fresh_services; do
    log "stopping $s (just installed; the tests and the demo start their own servers)"
    if command -v service >/dev/null 2>&1; then service "$s" stop >/dev/null 2>&1 || true; fi
done
# The Slurm daemons and munged are also stopped and disabled at boot (the test starts its own
# cluster on free ports and its own munge socket); done on every run while one is enabled or
# running as a service (its Debian pid file names a live process), so a run interrupted
# between install and here is finished by the next one. A machine that runs a Slurm cluster
# of its own sets PAIRBENCH_KEEP_SLURM_SERVICES=1 to keep them as they are.
svc_enabled() { # a systemd unit symlink or a SysV start link
    for f in /etc/systemd/system/*.wants/"$1".service /etc/rc[2-5].d/S[0-9][0-9]"$1"; do
        [ -e "$f" ] && return 0
    done
    return 1
}
svc_running() { # the pid file of Debian's unit or init script names a live process
    case $1 in munge) f=/run/munge/munged.pid ;; *) f=/run/$1.pid ;; esac
    [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null
}
if [ "${PAIRBENCH_KEEP_SLURM_SERVICES:-0}" != 1 ]; then
    for s in munge slurmctld slurmd; do
        installed "$s" || continue
        svc_enabled "$s" || svc_running "$s" || continue
        log "stopping and disabling the system service $s (the Slurm test runs its own daemons)"
        if command -v service >/dev/null 2>&1; then service "$s" stop >/dev/null 2>&1 || true; fi
        if command -v systemctl >/dev/null 2>&1; then systemctl disable "$s" >/dev/null 2>&1 || true; fi
        if [ -x "/etc/init.d/$s" ] && command -v update-rc.d >/dev/null 2>&1; then
            update-rc.d "$s" disable >/dev/null 2>&1 || true
        fi
        if svc_enabled "$s" || svc_running "$s"; then log "could not stop and disable $s"; exit 3; fi
    done
fi

# sshd is a test peer only: the system service stays off and does not start at boot, on every
# run (a machine may have had the package before this script)
if [ "$test_too" = 1 ] && installed openssh-server; then
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
        systemctl disable --now ssh.service ssh.socket >/dev/null 2>&1 || true
    else
        if command -v service >/dev/null 2>&1 && service ssh status >/dev/null 2>&1; then
            log "stopping the ssh service (the tests start their own sshd)"
            service ssh stop >/dev/null 2>&1 || true
        fi
        command -v update-rc.d >/dev/null 2>&1 && update-rc.d ssh disable >/dev/null 2>&1 || true
    fi
fi

if [ "$need_npm" = 1 ]; then # npm is not packaged with every nodejs build
    log "installing: npm"
    apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
if [ "$need_ws" = 1 ]; then
    log "npm ci in tests/ (the WebSocket peer 'ws', pinned by tests/package-lock.json)"
    (cd "$here/tests" && npm ci --no-audit --no-fund --silent)
fi
if [ "$need_hiredis" = 1 ]; then
    sh "$here/ci/build-hiredis.sh" "$here/.deps"
fi
log "ok: nothing else to install"
