#!/bin/sh
# End-to-end test of tcplab sweeps on Slurm: start a single-node cluster
# (munged + slurmctld + slurmd, every file in a temporary folder, no
# systemd), submit a sweep as a job array (one shard per task), merge the
# shard stores, and check the merged store against an unsharded sweep.
#
#   apt-get install -y slurm-wlm munge     # Debian/Ubuntu
#   scripts/slurm-e2e.sh                   # prints "slurm-e2e: ok" on success
#
# Environment: SHARDS (array size, default 4), SWEEP (sweep file, default
# the 120-run test sweep), KEEP=1 keeps the temporary folder. Runs as root
# (slurmd must start jobs as the submitting user).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARDS=${SHARDS:-4}
SWEEP=${SWEEP:-$ROOT/cmd/tcplab/testdata/sweep-small.yaml}
WORK=$(mktemp -d /tmp/tcplab-slurm.XXXXXX)
HOST=$(hostname -s)
log() { echo "slurm-e2e: $*"; }

PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null || true; done
	sleep 1
	if [ "${KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT INT TERM

for c in munged slurmctld slurmd sbatch sinfo go; do
	command -v "$c" >/dev/null || { log "missing $c (apt-get install -y slurm-wlm munge)"; exit 2; }
done

log "building tcplab into $WORK"
(cd "$ROOT" && go build -o "$WORK/tcplab" ./cmd/tcplab)

# munge: a fresh key and socket of our own, so a system munged (if any)
# is left alone.
mkdir -p "$WORK/munge" "$WORK/state" "$WORK/spool" "$WORK/out"
chmod 700 "$WORK/munge"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$WORK/munge/munge.key"
SOCK="$WORK/munge/munge.socket"
munged --force --foreground --key-file="$WORK/munge/munge.key" --socket="$SOCK" \
	--pid-file="$WORK/munge/munged.pid" --seed-file="$WORK/munge/munged.seed" \
	--log-file="$WORK/munge/munged.log" &
PIDS="$PIDS $!"

# Free-ish ports derived from our PID, so two runs do not collide.
CPORT=$((20000 + $$ % 20000))
DPORT=$((CPORT + 1))
cat > "$WORK/slurm.conf" <<CONF
ClusterName=tcplab-e2e
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCK
CredType=cred/munge
SlurmctldPort=$CPORT
SlurmdPort=$DPORT
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$HOST CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$WORK/slurm.conf"

for i in $(seq 50); do [ -S "$SOCK" ] && break; sleep 0.1; done
slurmctld -D -i -f "$SLURM_CONF" >"$WORK/slurmctld.out" 2>&1 &
PIDS="$PIDS $!"
slurmd -D -f "$SLURM_CONF" >"$WORK/slurmd.out" 2>&1 &
PIDS="$PIDS $!"

log "waiting for the node"
for i in $(seq 60); do
	if sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then break; fi
	sleep 1
done
sinfo -h -o '%P %t %D %c' || true
sinfo -h -o %t | grep -qE '^(idle|mix|alloc)' || { log "node did not come up"; cat "$WORK/slurmctld.log" "$WORK/slurmd.log" 2>/dev/null | tail -30; exit 1; }

# The job script: each array task runs its shard; tcplab reads
# SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT itself.
cat > "$WORK/job.sh" <<JOB
#!/bin/sh
exec "$WORK/tcplab" sweep "$SWEEP" --out "$WORK/out/shard-\$SLURM_ARRAY_TASK_ID.db" --workers 1
JOB
chmod +x "$WORK/job.sh"

log "submitting a $SHARDS-task array"
sbatch --wait --array=0-$((SHARDS - 1)) --cpus-per-task=1 --chdir="$WORK" \
	--output="$WORK/out/task-%a.log" "$WORK/job.sh"
for f in "$WORK"/out/task-*.log; do sed "s|^|  $(basename "$f"): |" "$f"; done

"$WORK/tcplab" results merge "$WORK/merged.db" "$WORK"/out/shard-*.db
"$WORK/tcplab" sweep "$SWEEP" --out "$WORK/whole.db" --progress none >/dev/null
"$WORK/tcplab" results export "$WORK/merged.db" --format json >"$WORK/merged.json"
"$WORK/tcplab" results export "$WORK/whole.db" --format json >"$WORK/whole.json"
RUNS=$("$WORK/tcplab" sweep "$SWEEP" --dry-run | wc -l)
GOT=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$WORK/merged.json" 2>/dev/null || grep -c '"run_key"' "$WORK/merged.json")
if [ "$GOT" != "$RUNS" ]; then log "merged store has $GOT runs, want $RUNS"; exit 1; fi
if ! cmp -s "$WORK/merged.json" "$WORK/whole.json"; then log "merged store differs from the unsharded sweep"; exit 1; fi
log "ok: $SHARDS array tasks, $GOT runs merged, identical to the unsharded sweep"
