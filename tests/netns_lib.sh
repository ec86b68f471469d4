# netns_lib: what the server-host tests (776, 777) share, sourced after lib.sh with S and C
# (the server's and the client's namespace names) and SRV and CLI (their /30 addresses) set:
# two network namespaces joined by a veth pair whose addresses exist only inside them, and
# OpenSSH's sshd in the server's on its own config, port, host key and authorized key, all
# made by the test. The trap removes everything: what runs inside the namespaces, the
# namespaces, /run/sshd when the test made it; sshd itself is start_bg's, stopped by cleanup.
made_run_sshd=0
host_cleanup() {
    ip netns pids "$S" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns pids "$C" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$S" 2>/dev/null || true
    ip netns del "$C" 2>/dev/null || true
    case $made_run_sshd in 1) rmdir /run/sshd 2>/dev/null || : ;; esac
}
trap 'host_cleanup; cleanup' EXIT

# netns_up: the two namespaces, the veth pair between them, their addresses, all links up.
netns_up() {
    ip netns add "$S"
    ip netns add "$C"
    ip link add "${S}v" type veth peer name "${C}v"
    ip link set "${S}v" netns "$S"
    ip link set "${C}v" netns "$C"
    ip -n "$S" addr add "$SRV/30" dev "${S}v"
    ip -n "$C" addr add "$CLI/30" dev "${C}v"
    for ns in "$S" "$C"; do ip -n "$ns" link set lo up; done
    ip -n "$S" link set "${S}v" up
    ip -n "$C" link set "${C}v" up
}

# netns_sshd [CONFIG LINE]...: keys made now, known_hosts, an sshd_config (with the lines
# given), sshd started in the server namespace in the foreground (-D, a child of the test:
# stopped and reaped by its cleanup) and waited for; URL is the server host for compare,
# with this build's driver copied to $T/driver.
netns_sshd() {
    ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey"
    ssh-keygen -q -t ed25519 -N '' -f "$T/id"
    cp "$T/id.pub" "$T/authorized_keys"
    printf '[%s]:2222 %s\n' "$SRV" "$(cut -d' ' -f1,2 "$T/hostkey.pub")" > "$T/known_hosts"
    cat > "$T/sshd_config" <<CONF
ListenAddress $SRV
Port 2222
HostKey $T/hostkey
PidFile $T/sshd.pid
AuthorizedKeysFile $T/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
MaxStartups 50
MaxSessions 50
CONF
    for line in "$@"; do printf '%s\n' "$line" >> "$T/sshd_config"; done
    if [ ! -d /run/sshd ]; then mkdir -m 0755 /run/sshd; made_run_sshd=1; fi
    start_bg sshd ip netns exec "$S" /usr/sbin/sshd -D -f "$T/sshd_config" -E "$T/sshd.log"
    i=0
    while [ ! -s "$T/sshd.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    [ -s "$T/sshd.pid" ] || fail "sshd wrote no pid file: $(cat "$T/sshd.log")"
    cp "$DRIVER" "$T/driver"
    URL="ssh://root@$SRV:2222?keyfile=$T/id&known_hosts=$T/known_hosts&driver=$T/driver"
}
