#!/usr/bin/env bash
# Tests the Slurm path for real on this machine: installs Debian's
# slurm-wlm and munge when missing, starts a one-node cluster as root
# (munged, slurmctld, slurmd, with a minimal configuration written to a
# temporary directory), submits `learn nonogram` as 4 shards and a merge
# through submit.sh on a small sample, waits, and checks that the merged
# rule files equal those of the same shards run by hand and that Z3
# proves every merged rule. Stops the daemons it started, by their
# process ids. The binary is $STRATSYNTH (default: the test-profile
# build, target/debug/stratsynth, which `cargo test` leaves).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# the learning options, as the positional parameters (no bash arrays: an
# empty one is an unbound variable under `set -u` before bash 4.4)
set -- --sample 8 --max-len 5 --seed 3 --augment 2
shards=4

if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/slurm/test.sh: runs the Slurm daemons as root; run it as root" >&2
    exit 1
fi
need=""
for pkg in slurm-wlm munge; do dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"; done
if [ -n "$need" ]; then
    apt-get update -q
    # shellcheck disable=SC2086 # the package names, one word each
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need
fi
if [ -z "${STRATSYNTH:-}" ]; then
    (cd "$root" && cargo build -q --profile test --bin stratsynth)
    STRATSYNTH=$root/target/debug/stratsynth
fi
export STRATSYNTH

tmp=$(mktemp -d /tmp/stratsynth-slurm.XXXXXX)
pids="" # the daemons started here, separated by spaces
keep=""
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    for _ in $(seq 20); do
        alive=""
        for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ -z "$alive" ] && break
        sleep 0.5
    done
    if [ -n "$keep" ]; then echo "kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
# the process id a daemon wrote to `$1`, once it has
started() {
    for _ in $(seq 50); do
        [ -s "$1" ] && { pids="$pids $(cat "$1")"; return; }
        sleep 0.2
    done
    fail "no process id in $1"
}
fail() {
    echo "scripts/slurm/test.sh: $*" >&2
    for log in "$tmp/munge/munged.log" "$tmp/slurmctld.log" "$tmp/slurmd.log" "$tmp"/cluster/slurm/*.out; do
        [ -f "$log" ] && { echo "--- $log" >&2; tail -20 "$log" >&2; }
    done
    keep=1
    exit 1
}

# munge: a fresh key and a socket of our own
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool"
chmod 700 "$tmp/munge"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 600 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/seed"
started "$tmp/munge/munged.pid"

host=$(hostname -s)
cat >"$tmp/slurm.conf" <<CONF
ClusterName=stratsynthtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$SLURM_CONF"
started "$tmp/slurmctld.pid"
slurmd -f "$SLURM_CONF"
started "$tmp/slurmd.pid"
for _ in $(seq 60); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
    sleep 1
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] || fail "the node did not come up"

# the cluster run: every task one thread, so the 4 shards share the node
read -r array merge < <(SBATCH_CPUS_PER_TASK=1 "$here/submit.sh" "$shards" "$tmp/cluster" "$@")
echo "submitted the shard array $array and the merge $merge"
for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break
    sleep 1
done
state=$(scontrol show job "$merge" | grep -o 'JobState=[A-Z_]*' || true)
[ "$state" = JobState=COMPLETED ] || fail "the merge job ended as ${state:-unknown}"

# the same shards by hand
for i in $(seq 0 $((shards - 1))); do
    "$STRATSYNTH" learn nonogram --out-dir "$tmp/hand" --shards "$shards" --shard "$i" --threads 1 "$@" >/dev/null 2>&1
done
"$STRATSYNTH" learn nonogram --out-dir "$tmp/hand" --shards "$shards" --merge "$@" >/dev/null 2>&1

# equal rule files after their headers (which name the out-dir)
for file in learned.rules top10.rules; do
    if ! diff <(sed '1,/^$/d' "$tmp/cluster/$file") <(sed '1,/^$/d' "$tmp/hand/$file") >/dev/null; then
        fail "$file differs between the Slurm run and the shards run by hand"
    fi
done
rules=$(grep -c '^def ' "$tmp/cluster/learned.rules")
[ "$rules" -gt 0 ] || fail "no rules merged"
"$STRATSYNTH" verify "$tmp/cluster/learned.rules" --rlimit 2000000000 >"$tmp/verify.txt" || fail "verify failed: $(tail -3 "$tmp/verify.txt")"
echo "scripts/slurm/test.sh: ok: $shards shards and their merge ran under Slurm; $rules merged rules, equal to the shards run by hand, each proven by Z3"
