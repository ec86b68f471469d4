# Sourced by the bench scripts. host_line prints one header line naming what the figures
# depend on beyond the code: the CPU (its model name says only "AMD EPYC" on some VMs, so
# family, model and stepping too, worded as meta.json's cpu_id), the kernel, and how an idle vCPU waits (the idle driver
# and the guest's halt-polling window). Two VMs of the project's kind, same kernel and boot
# line, put ECHO at 4 connections and pipeline 1 at 0.85 and at 1.56 of redis-benchmark
# (docs/performance.md, "What the figures depend on").
host_line() {
    host_cpu=$(awk -F': *' '/^model name/ && !m {m = $2} /^cpu family/ && !f {f = $2}
        /^model\t/ && !n {n = $2} /^stepping/ && !s {s = $2}
        END {printf "%s", m; if (f != "") printf " (x86 family %s model %s stepping %s)", f, n, s}' \
        /proc/cpuinfo 2>/dev/null)
    host_idle=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo unknown)
    host_hp=$(cat /sys/module/haltpoll/parameters/guest_halt_poll_ns 2>/dev/null || true)
    printf 'host: %s, %s CPUs, Linux %s; idle: %s%s (docs/ci.md, "Busy polling on a VM")\n' \
        "$host_cpu" "$(getconf _NPROCESSORS_ONLN)" "$(uname -r)" "$host_idle" \
        "${host_hp:+, guest_halt_poll_ns $host_hp}"
}

# private_bins DIR: copies $DRIVER and $COMPARE into DIR and points them there, so that a
# rebuild of bin/ while a long bench runs cannot pull them away; with compare goes the
# interposer counted servers start from (compare looks for it beside itself).
private_bins() {
    cp "$DRIVER" "$1/driver" && DRIVER=$1/driver
    if [ -f "$(dirname "$COMPARE")/libpairbench-seed.so" ]; then
        cp "$(dirname "$COMPARE")/libpairbench-seed.so" "$1/"
    fi
    cp "$COMPARE" "$1/compare" && COMPARE=$1/compare
}

# free_port: a loopback port nothing listens on now (the kernel's pick); wait_port PORT: until
# something accepts on it, at most 10 s (exit status 1 after that).
free_port() {
    node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
wait_port() {
    node -e 'const net=require("net"),t=Date.now();
(function go(){const c=net.connect(+process.argv[1],"127.0.0.1",()=>{c.end();process.exit(0)});
c.on("error",()=>Date.now()-t>10000?process.exit(1):setTimeout(go,50))})()' "$1"
}
