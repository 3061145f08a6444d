#!/usr/bin/env bash
# A real single-node SLURM cluster on this machine, for testing profiles/slurm:
#   local_cluster.sh start STATE_DIR   install (Debian, as root), configure and start munged,
#                                      slurmctld and slurmd
#   local_cluster.sh stop STATE_DIR    stop every daemon it started, by PID, and put back any
#                                      /etc/slurm/slurm.conf that was there before
# The configuration goes to /etc/slurm/slurm.conf, where every SLURM command looks, the srun
# inside a batch job included; state, logs and the munge key stay in STATE_DIR.
# Accounting (slurmdbd + MariaDB) is left out: it would double the set-up time, and the test
# reads SLURM's own job-completion log (jobcomp/filetxt) and squeue instead of sacct.
set -euo pipefail
action=$1
state=$(realpath -m "$2")

start() {
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >"$state.apt.log" 2>&1
  fi
  mkdir -p "$state"/{ctld,spool,munge}
  chmod 700 "$state/munge"
  # a key of our own, so that an existing munge set-up is left as it is
  dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$state/munge/munge.key"
  munged --force --key-file="$state/munge/munge.key" --socket="$state/munge/socket" \
    --pid-file="$state/munge.pid" --log-file="$state/munged.log" --seed-file="$state/munge/seed"
  local host cpus mem
  host=$(hostname)
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 8 / 10 ))
  mkdir -p /etc/slurm
  if [ -e /etc/slurm/slurm.conf ] && [ ! -e "$state/slurm.conf.before" ]; then
    mv /etc/slurm/slurm.conf "$state/slurm.conf.before"
  fi
  cat >/etc/slurm/slurm.conf <<CONF
ClusterName=local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$state/munge/socket
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/filetxt
JobCompLoc=$state/jobcomp.txt
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  slurmctld
  slurmd
  for _ in $(seq 60); do
    if sinfo -h -o %t 2>/dev/null | grep -q idle; then
      return 0
    fi
    sleep 1
  done
  echo "the local SLURM node did not become idle; see $state/*.log" >&2
  return 1
}

stop() {
  for daemon in slurmd slurmctld munge; do
    if [ -f "$state/$daemon.pid" ]; then
      kill "$(cat "$state/$daemon.pid")" 2>/dev/null || true
    fi
  done
  rm -f /etc/slurm/slurm.conf
  if [ -e "$state/slurm.conf.before" ]; then
    mv "$state/slurm.conf.before" /etc/slurm/slurm.conf
  fi
}

"$action"
