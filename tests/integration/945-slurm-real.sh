#!/bin/sh
# pairbench-test: untimed
# ci/slurm/shards.sh under a real scheduler: Debian's Slurm and munge (ci/install-deps.sh
# --test) as a one-node cluster on this machine, from a slurm.conf written into the test's
# temp dir (its own munge key and munged socket, slurmctld and slurmd on free loopback ports,
# state, spool and logs under the temp dir, proctrack/linuxproc and task/none: no cgroups).
# The recipe is submitted as shipped (a 2-task array job, --exclusive, then the merge job
# that waits on it with afterany), both jobs are awaited (at most 120 s), and then:
# - every array task ended COMPLETED with exit 0 and the merge job ran merge + gate (exit 0,
#   1 or 4: an A/A pair at 2 runs is mostly undecided);
# - the merged run directory holds what a single-machine run of the same grid holds (3
#   configurations of the reference TCP server against itself, 2 runs): the same
#   configurations, rows, statuses, run counts and per-version sample counts (at 2 rounds no
#   round can be set aside as disturbed or an outlier), and the same runs in the dataset
#   (configuration, version, round, status); verdicts are not compared (noise);
# - the jobs' logs are in the results directory and none is in the checkout;
# - every job and daemon is stopped at the end, on failure too (trap): no munged, slurmctld,
#   slurmd, slurmscriptd or slurmstepd of this cluster is left (pgrep, then the processes'
#   command lines and environments).
# Cost: about 15 s on a quiet machine, 20-30 s sanitized or under load (the daemons are up in
# under 1 s; the single-machine run takes 6 s, each shard 3 s, one after the other, the merge 2 s).
. "$(dirname "$0")/../lib.sh"
for p in munged munge slurmctld slurmd sbatch scontrol squeue scancel sinfo; do need "$p"; done
need node
S=$T/slurm
mkdir -p "$S/state" "$S/spool" "$S/log" "$S/munge"
# munged wants every directory up to its socket searchable by all, its key private
chmod 711 "$T"
chmod 755 "$S" "$S/munge"
cp "$DRIVER" "$T/driver"; DRV=$T/driver
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare

# Stops the cluster: cancels its jobs, stops the daemons (by their pids), then kills any
# process left whose environment names this cluster's slurm.conf (a job's slurmstepd and
# what it started, when a daemon died first).
sl() { SLURM_CONF=$S/slurm.conf timeout -s KILL 10 "$@"; } # a client of this cluster, bounded
alive() { # fails, with the daemons' logs, when one of them has exited
    for p in $DAEMONS; do
        kill -0 "$p" 2> /dev/null || fail "a daemon (pid $p) exited: $(tail -5 "$T"/*.err "$S"/log/*.log 2>&1)"
    done
}
ours() { # pids of the processes whose environment or command line names this cluster
    for f in /proc/[0-9]*; do
        if grep -qsaF "$S/" "$f/environ" "$f/cmdline" 2> /dev/null; then echo "${f#/proc/}"; fi
    done
}
DAEMONS=""
slurm_stop() {
    if [ -n "$DAEMONS" ]; then
        sl scancel --quiet --user "$(id -un)" 2> /dev/null || true
        i=0
        while [ -n "$(sl squeue -h 2> /dev/null)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    fi
    for p in $DAEMONS; do kill "$p" 2> /dev/null || true; done
    for p in $DAEMONS; do
        i=0
        while kill -0 "$p" 2> /dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    done
    for p in $(ours); do [ "$p" = "$$" ] || kill -9 "$p" 2> /dev/null || true; done
    DAEMONS=""
}
trap 'slurm_stop; cleanup' EXIT

# munge: a key of this test's own and a munged on a socket in the temp dir
dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 2> /dev/null
chmod 400 "$S/munge/munge.key"
start_bg munged munged -F --socket="$S/munge/sock" --key-file="$S/munge/munge.key" \
    --pid-file="$S/munge/munged.pid" --log-file="$S/munge/munged.log" --seed-file="$S/munge/seed"
DAEMONS="$LAST_PID"
i=0
until munge -S "$S/munge/sock" -n 2> /dev/null | unmunge -S "$S/munge/sock" > /dev/null 2>&1; do
    kill -0 "$LAST_PID" 2> /dev/null || fail "munged exited: $(cat "$T/munged.err")"
    [ $i -lt 100 ] || fail "munged: no credential round trip after 10 s: $(cat "$T/munged.err")"
    sleep 0.1; i=$((i + 1))
done

# one node, this machine; slurmctld and slurmd on free loopback ports, as this user
host=$(hostname -s)
me=$(id -un)
ctld_port=$(free_port); slurmd_port=$(free_port)
: > "$S/plugstack.conf"
cat > "$S/slurm.conf" <<EOF
ClusterName=pairbench
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$me
SlurmdUser=$me
AuthType=auth/munge
AuthInfo=socket=$S/munge/sock
CredType=cred/munge
PlugStackConfig=$S/plugstack.conf
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MailProg=/bin/true
NodeName=pbnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=pairbench Nodes=pbnode Default=YES MaxTime=INFINITE State=UP
EOF
start_bg slurmctld env SLURM_CONF="$S/slurm.conf" slurmctld -D -f "$S/slurm.conf"
DAEMONS="$DAEMONS $LAST_PID"
start_bg slurmd env SLURM_CONF="$S/slurm.conf" slurmd -D -N pbnode -f "$S/slurm.conf"
DAEMONS="$DAEMONS $LAST_PID"
i=0
until [ "$(sl sinfo -h -n pbnode -o %t 2> /dev/null)" = idle ]; do
    alive
    [ $i -lt 300 ] || fail "the node is not idle after 30 s: $(sl sinfo 2>&1; tail -5 "$S"/log/*.log)"
    sleep 0.1; i=$((i + 1))
done

# the grid, once on this machine and once through the recipe
cat > "$T/grid.json" <<'JSON'
{"name": "slurm-small", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1},
 "axes": {"payload": [64, 512, 2048]}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
  {"name": "a", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}},
  {"name": "b", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0.05, "duration": 0.2, "grace": 10, "probe_timeout": 20}
JSON
assert_exit 0 "$COMPARE" run --spec "$T/spec.json" --out "$T/single" > /dev/null 2> "$T/single.err"

R=$T/res
checkout_logs() { (cd "$TOP" && ls -d pairbench-shard-*.log 2> /dev/null) || true; }
checkout_logs > "$T/logs.before"
(cd "$T" && sl env PAIRBENCH_COMPARE="$COMPARE" sh "$TOP/ci/slurm/shards.sh" "$T/spec.json" "$R" 2) \
    > "$T/submit.out" 2> "$T/submit.err" || fail "submit: $(cat "$T/submit.err")"
array=$(sed -n 's/^submitted shards as job \([0-9]*\), merge as job \([0-9]*\);.*/\1/p' "$T/submit.out")
merge=$(sed -n 's/^submitted shards as job \([0-9]*\), merge as job \([0-9]*\);.*/\2/p' "$T/submit.out")
[ -n "$array" ] && [ -n "$merge" ] || fail "submit printed no job ids: $(cat "$T/submit.out")"

state() { sl scontrol -o show job "$1" | sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p'; }
i=0
while :; do
    case $(state "$merge") in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
    alive
    [ $i -lt 1200 ] || fail "the merge job has not ended after 120 s: $(sl squeue 2>&1)"
    sleep 0.1; i=$((i + 1))
done

# every array task: completed, exit 0; the merge: merge and gate ran (0, 1 or 4)
sl scontrol -o show job "$array" > "$T/array.txt"
assert_eq "$(grep -c "ArrayJobId=$array ArrayTaskId=[12] " "$T/array.txt")" 2 "array tasks"
assert_eq "$(grep -c 'JobState=COMPLETED .* ExitCode=0:0 ' "$T/array.txt")" 2 \
    "array tasks completed with exit 0 ($(cat "$T/array.txt"))"
mexit=$(sl scontrol -o show job "$merge" | sed -n 's/.* ExitCode=\([0-9]*\):0 .*/\1/p')
case $mexit in 0 | 1 | 4) ;; *) fail "merge job exit '$mexit': $(tail -5 "$R"/merge-*.log)" ;; esac
grep -q '^<!-- pairbench-gate -->$' "$R/merge-$merge.log" || fail "the merge job did not gate: $(tail -5 "$R/merge-$merge.log")"
checkout_logs | grep -vxF -f "$T/logs.before" > "$T/logs.new" || true
if [ -s "$T/logs.new" ]; then
    (cd "$TOP" && xargs rm -f < "$T/logs.new")
    fail "job logs were written into the checkout: $(cat "$T/logs.new")"
fi
for k in 1 2; do
    [ -f "$R/pairbench-shard-${array}_$k.log" ] || fail "no log of shard $k in $R: $(ls "$R")"
    assert_eq "$(json_get "$R/shard-$k/meta.json" 'this.settings.shard')" "$k/2" "shard $k's --shard"
done

# the merged directory against the single-machine run: same rows, same completeness
for f in runs.jsonl meta.json summary.json report.md; do [ -s "$R/merged/$f" ] || fail "merged/$f missing"; done
# (the timed metrics every ok run has; the server's software events, context switches, page
# faults and migrations, come from perf counters a loaded CI machine once left out of one run
# of the single-machine side: a measurement's detail, not the shards' completeness)
rows() {
    json_get "$1/summary.json" 'const core = ["throughput", "cpu_percent", "cpu_efficiency", "p50_us", "p99_us", "rss_mib"];
    this.rows.map(r => [r.config, r.label, r.status, r.runs.expected, r.runs.ok,
        r.runs.failed, r.runs.replaced, core.map(m => m + "=" +
        Object.keys(r.metrics[m].values).map(v => v + ":" + r.metrics[m].values[v].n).join("/")).join(",")].join(" ")).join("\n")'
}
rows "$T/single" > "$T/single.rows"
rows "$R/merged" > "$T/merged.rows"
assert_eq "$(wc -l < "$T/single.rows")" 3 "rows of the single-machine run"
assert_eq "$(grep -c ' ok 4 4 0 0 ' "$T/single.rows")" 3 "complete rows of the single-machine run ($(cat "$T/single.rows"))"
assert_eq "$(cat "$T/merged.rows")" "$(cat "$T/single.rows")" "merged rows vs single-machine rows"
cfgs() { json_get "$1/meta.json" 'this.configs.map(c => c.id + ":" + c.index).join(" ")'; }
assert_eq "$(cfgs "$R/merged")" "$(cfgs "$T/single")" "merged configurations"
assert_eq "$(wc -l < "$R/merged/runs.jsonl")" "$(wc -l < "$T/single/runs.jsonl")" "dataset lines"
runs() {
    node -e 'require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse)
        .map(r => [r.config, r.version, r.round, r.status].join(" ")).sort().forEach(l => console.log(l))' "$1/runs.jsonl"
}
assert_eq "$(runs "$R/merged")" "$(runs "$T/single")" "merged runs (configuration, version, round, status)"
assert_eq "$(json_get "$R/merged/meta.json" 'this.shards.map(s => s.k + "/" + s.n).sort().join(" ")')" \
    "1/2 2/2" "shards recorded in the merged meta.json"

# stop everything; nothing of this cluster may be left
slurm_stop
for n in munged slurmctld slurmd slurmscriptd slurmstepd; do
    for p in $(pgrep -x "$n" || true); do
        if grep -qsaF "$S/" "/proc/$p/environ" "/proc/$p/cmdline"; then fail "$n (pid $p) left running"; fi
    done
done
left=$(ours | grep -vx "$$" || true)
[ -z "$left" ] || fail "processes of the cluster left: $left"
echo "ok: shards.sh on a one-node Slurm cluster: array job + dependent merge, merged rows = single-machine rows"
