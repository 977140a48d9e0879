#!/usr/bin/env bash
# CI: the Slurm example (deploy/slurm-array.sh, deploy/slurm-merge.sh) on a
# real single-node Slurm cluster. Installs Debian's slurm-wlm and munge,
# starts munged, slurmctld and slurmd on this host (configuration, state and
# logs in a temporary folder; /etc is not touched), submits the array job and
# the merge with --dependency=afterok exactly as docs/BATCH.md shows, and checks
# that the merged result equals a single run byte for byte.
#
# Where Slurm cannot be had (not root, no apt-get, the install or a daemon
# fails, the node never becomes idle) it prints one line "slurm: skipped: WHY"
# and exits 0. Once the node is idle, any failure of the jobs or a merge that
# differs from the single run fails CI, with the job and daemon logs.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
start=$SECONDS

skip() {
	echo "slurm: skipped: $*"
	exit 0
}

[ "$(id -u)" = 0 ] || skip "not root (the daemons and apt-get need root)"
need=(sbatch squeue sinfo scontrol scancel slurmctld slurmd munged)
missing() {
	local c
	for c in "${need[@]}"; do
		command -v "$c" > /dev/null || return 0
	done
	return 1
}
if missing; then
	command -v apt-get > /dev/null || skip "slurm-wlm is not installed and there is no apt-get"
	export DEBIAN_FRONTEND=noninteractive
	aptlog=$(mktemp)
	t0=$SECONDS
	timeout 300 apt-get update -qq > "$aptlog" 2>&1 &&
		timeout 600 apt-get install -y -qq --no-install-recommends slurm-wlm munge >> "$aptlog" 2>&1 ||
		skip "apt-get install slurm-wlm munge failed: $(tail -n 1 "$aptlog")"
	rm -f "$aptlog"
	echo "slurm: installed Debian's slurm-wlm and munge in $((SECONDS - t0)) s"
	missing && skip "slurm-wlm installed but a command is missing (${need[*]})"
fi

work=$(mktemp -d /tmp/gk-slurm.XXXXXX)
chmod 755 "$work"
pids=()
ourjobs=
cleanup() {
	[ -z "$ourjobs" ] || scancel "$ourjobs" > /dev/null 2>&1 || true
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2> /dev/null || true
	done
	for p in "${pids[@]}"; do
		wait "$p" 2> /dev/null || true
	done
	rm -rf "$work"
}
trap cleanup EXIT
# Prints the daemons' logs (on a failure).
logs() {
	local f
	for f in "$work"/*.log "$work"/out/*; do
		[ -f "$f" ] || continue
		echo "--- $f (last 30 lines)"
		tail -n 30 "$f"
	done
}

# The binary, built once; sbatch passes the environment (GOSSIPKIT, PARTS,
# RESULT) to the jobs.
go build -o "$work/gossipkit" ./cmd/gossipkit
export GOSSIPKIT=$work/gossipkit PARTS=$work/parts RESULT=$work/result.csv

# munge, with its own key and socket.
mkdir -m 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/key" bs=1024 count=1 status=none
chmod 600 "$work/munge/key"
sock=$work/munge/sock
munged --foreground --force --key-file="$work/munge/key" --socket="$sock" \
	--pid-file="$work/munge/pid" --seed-file="$work/munge/seed" \
	--log-file="$work/munged.log" > "$work/munged.out.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
	[ -S "$sock" ] && break
	sleep 0.2
done
[ -S "$sock" ] || skip "munged did not start: $(tail -q -n 1 "$work/munged.log" "$work/munged.out.log" 2> /dev/null | tr '\n' ' ')"

# A one-node cluster: this host is the controller and the compute node. No
# cgroups (proctrack/linuxproc, task/none), no accounting daemon; finished
# jobs are recorded in a text file (jobcomp/filetxt).
node=$(hostname -s)
cpus=$(nproc)
# Ports of our own, so that a second run on the same machine (or a Slurm
# already there) does not answer for ours: two consecutive free ones.
port=0
for try in $(seq 20); do
	p=$((20000 + (($$ + try * 7919) % 20000) * 2))
	if ! (: < "/dev/tcp/127.0.0.1/$p") 2> /dev/null && ! (: < "/dev/tcp/127.0.0.1/$((p + 1))") 2> /dev/null; then
		port=$p
		break
	fi
done
[ "$port" != 0 ] || skip "found no free pair of ports"
mkdir -p "$work/state" "$work/spool" "$work/out"
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" << EOF
ClusterName=gossipkit-ci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$work/jobcomp.txt
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

up=$SECONDS
slurmctld -D -i -f "$SLURM_CONF" > "$work/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" > "$work/slurmd.out.log" 2>&1 &
pids+=($!)
state=
for _ in $(seq 60); do
	state=$(sinfo -h -n "$node" -o %t 2> /dev/null || true)
	[ "$state" = idle ] && break
	sleep 1
done
if [ "$state" != idle ]; then
	logs >&2
	skip "the node did not become idle within 60 s (sinfo: '${state:-no answer}'; logs above)"
fi
echo "slurm: single-node cluster idle $((SECONDS - up)) s after the daemons started: $(sinfo -h -o '%P %D %t %C' | head -n 1) (partition nodes state cpus A/I/O/T)"

# The example exactly as docs/BATCH.md gives it; only where the output goes is
# set here.
cd "$work"
fail() {
	logs >&2
	echo "slurm: FAIL: $*" >&2
	exit 1
}
jid=$(sbatch --parsable --output="$work/out/array-%A_%a.out" "$repo/deploy/slurm-array.sh") ||
	fail "sbatch deploy/slurm-array.sh"
ourjobs=$jid
mid=$(sbatch --parsable --output="$work/out/merge-%j.out" --dependency=afterok:"$jid" "$repo/deploy/slurm-merge.sh") ||
	fail "sbatch deploy/slurm-merge.sh"
ourjobs=$jid,$mid
echo "slurm: submitted array job $jid and merge job $mid (afterok:$jid)"
"$GOSSIPKIT" sim --reps 12 --rounds 100 --warmup 50 --seed 9 --format csv > single.csv

waited=0
while [ -n "$(squeue -h -j "$jid,$mid" -o %i 2> /dev/null)" ]; do
	if [ "$waited" -ge 300 ]; then
		squeue -j "$jid,$mid" >&2 || true
		fail "jobs $jid and $mid not finished after 300 s"
	fi
	sleep 2
	waited=$((waited + 2))
done
# The controller's record of each finished job, one line each.
touch "$work/jobcomp.txt"
awk '{
	line = "slurm: job"
	for (i = 1; i <= NF; i++)
		if ($i ~ /^(JobId|Name|ArrayJobId|ArrayTaskId|JobState|Tres|StartTime|EndTime)=/)
			line = line " " $i
	print line
}' "$work/jobcomp.txt"
for f in "$work"/out/*; do
	if [ -s "$f" ]; then sed "s|^|slurm: ${f##*/}: |" "$f"; fi
done
ok=$(grep -c 'JobState=COMPLETED' "$work/jobcomp.txt" || true)
[ "$ok" = 4 ] && [ -f "$RESULT" ] ||
	fail "$ok of 4 jobs (3 array tasks, 1 merge) completed (records above)"
cmp single.csv "$RESULT" || fail "the merged result differs from the single run"
echo "slurm: merge of the 3 tasks of array job $jid by job $mid = single run ($(wc -c < single.csv) bytes); $((SECONDS - start)) s in all"
