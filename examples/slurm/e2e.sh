#!/usr/bin/env bash
# End-to-end test of sharding on a real Slurm: starts a one-node cluster on
# this machine (Debian's slurm-wlm and munge, no cgroups, its own config,
# ports and spool under a temporary directory), submits a K-task job array
# of a simulation and of a plan with examples/slurm/shard.sbatch, merges the
# shards in a job that depends on the array, and compares the results with
# a local run byte for byte.
#
#   examples/slurm/e2e.sh            # uses Slurm and munge if installed
#   ODDSMITH_SLURM_INSTALL=1 examples/slurm/e2e.sh   # apt-get installs them first (root)
#
# Exit status: 0 passed, 1 failed, 77 skipped (Slurm cannot be installed or
# started here: the reason is printed). Quick: small trial counts, about a
# minute with the cluster's start.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

say() { echo "slurm-e2e: $*" >&2; }
skip() { say "SKIPPED: $*"; exit 77; }
fail() { say "FAILED: $*"; exit 1; }

K=${K:-3}
TRIALS=${TRIALS:-3000000} # 46 chunks: K = 3 does not divide them

# 1. Slurm and munge.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  if [ "${ODDSMITH_SLURM_INSTALL:-0}" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing slurm-wlm and munge (apt-get)"
    if ! (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge) >/tmp/oddsmith-slurm-apt.log 2>&1; then
      skip "apt-get could not install slurm-wlm and munge (see /tmp/oddsmith-slurm-apt.log)"
    fi
  else
    skip "Slurm is not installed (slurmctld, slurmd, sbatch, munged); on Debian: apt-get install slurm-wlm munge, or run with ODDSMITH_SLURM_INSTALL=1 as root"
  fi
fi
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs; run this test as root"

work=$(mktemp -d /tmp/oddsmith-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  local rc=$?
  if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then scancel --quiet --user=root >/dev/null 2>&1 || true; fi
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [ $rc -eq 0 ] || [ "${KEEP:-0}" != 1 ]; then rm -rf "$work"; else say "kept $work"; fi
}
trap cleanup EXIT

# 2. oddsmith, built once for the local run and the jobs.
go build -o "$work/bin/oddsmith" ./cmd/oddsmith
export ODDSMITH=$work/bin/oddsmith

# 3. munge: reuse a running daemon, else start one on our own socket.
if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  munge_socket=""
  say "using the running munged"
else
  [ -s /etc/munge/munge.key ] || { (mungekey -c 2>/dev/null || dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null) && chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key; } || skip "cannot create a munge key"
  mkdir -p "$work/munge" && chown munge:munge "$work/munge" && chmod 755 "$work/munge"
  munge_socket=$work/munge/munge.socket
  runuser -u munge -- munged --socket="$munge_socket" --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" >/dev/null 2>&1 || skip "munged does not start here: $(tail -n 3 "$work/munge/munged.log" 2>/dev/null | tr '\n' ' ')"
  for _ in $(seq 50); do [ -s "$work/munge/munged.pid" ] && break; sleep 0.1; done
  pids+=("$(cat "$work/munge/munged.pid")")
  munge -S "$munge_socket" -n | unmunge -S "$munge_socket" >/dev/null 2>&1 || skip "munge cannot encode and decode credentials here"
fi

# 4. A one-node cluster: no cgroups (proctrack/linuxproc, task/none), no
# accounting, its own ports and directories.
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool" "$work/log"
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=oddsmith-e2e
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
$( [ -n "$munge_socket" ] && echo "AuthInfo=socket=$munge_socket" )
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,bf_interval=1
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=e2e Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -i >"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D >"$work/log/slurmd.out" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 60); do
  state=$(sinfo -h -n "$host" -o %t 2>/dev/null | head -n1 || true)
  case "$state" in idle | mix | alloc) up=1; break ;; esac
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || break 2; done
  sleep 0.5
done
if [ -z "$up" ]; then
  say "slurmctld log:"; tail -n 8 "$work/log/slurmctld.log" "$work/log/slurmctld.out" >&2 2>/dev/null || true
  say "slurmd log:"; tail -n 8 "$work/log/slurmd.log" "$work/log/slurmd.out" >&2 2>/dev/null || true
  skip "the one-node Slurm cluster did not come up in this container (node state '${state:-none}')"
fi
say "cluster up: node $host ($cpus CPUs), $(sinfo --version)"

# 5. A K-task array of a simulation and of a plan, then a merge job each
# that runs after the array (afterok), waited for.
cd "$work"
sim_args=(sim ag.skill_test --set skill=2 --set attribute=2 --set tn=5 -n "$TRIALS" -s 7 --format csv)
plan=$root/examples/slurm/plan.toml
submit() { sbatch --parsable --cpus-per-task=1 --array=0-$((K - 1)) --output="$work/%x-%A_%a.log" "$@"; }
sim_job=$(submit --job-name=e2e-sim "$root/examples/slurm/shard.sbatch" shards/sim "${sim_args[@]}")
plan_job=$(submit --job-name=e2e-plan "$root/examples/slurm/shard.sbatch" shards/plan run "$plan")
say "submitted arrays $sim_job (sim) and $plan_job (plan), $K tasks each"
merge_job=$(sbatch --parsable --job-name=e2e-merge --dependency=afterok:$sim_job:$plan_job --output="$work/merge.log" \
  --wrap "'$ODDSMITH' merge shards/sim.*.shard -o merged.csv && '$ODDSMITH' merge shards/plan.*.shard -o merged-bundle")
# Wait (sbatch --wait polls slowly): the merge job's state, every half second.
job_state() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }
for _ in $(seq 240); do
  case "$(job_state "$merge_job")" in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
  sleep 0.5
done
if [ "$(job_state "$merge_job")" != COMPLETED ]; then
  cat "$work"/*.log >&2 2>/dev/null || true
  scontrol show job "$merge_job" >&2 || true
  fail "the merge job did not complete (state $(job_state "$merge_job"); the jobs' logs are above)"
fi
say "task logs:"; cat "$work"/e2e-sim-*_0.log >&2
say "merge log:"; cat "$work/merge.log" >&2

# 6. The same on one machine, compared byte for byte.
"$ODDSMITH" "${sim_args[@]}" -q -o local.csv
"$ODDSMITH" run "$plan" -q -o local-bundle >/dev/null
cmp local.csv merged.csv || fail "the merged simulation differs from the local run"
diff -r local-bundle merged-bundle >&2 || fail "the merged plan bundle differs from the local run"
[ "$(ls shards/sim.*.shard | wc -l)" -eq "$K" ] && [ "$(ls shards/plan.*.shard | wc -l)" -eq "$K" ] || fail "expected $K shard files of each"
say "PASSED: $K-task arrays of a simulation ($TRIALS trials) and of a plan ($(ls local-bundle | wc -l) files) merged to the bytes of a local run"
