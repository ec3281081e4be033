#!/usr/bin/env bash
# A one-node SLURM cluster on this machine, for running the workflow through
# profiles/slurm (Snakemake's SLURM executor plugin) without a real cluster:
# munge, MariaDB, slurmdbd (accounting: the plugin reads job states with sacct),
# slurmctld and slurmd, installed from the Debian packages pinned below and
# started without systemd. docs/cluster.md ("A one-node SLURM on this machine").
#
#   tools/slurm_local.sh [start]   install what is missing, write the configs, start
#                                  what is not running; running it again is harmless
#   tools/slurm_local.sh status    which daemons run, and the node's state
#   tools/slurm_local.sh stop      cancel every job of this cluster, stop the daemons,
#                                  remove slurm.conf (start writes it again)
#
# Needs root and apt-get (Debian 12 or a relative), and writes /etc/slurm,
# /etc/munge, /var/lib/slurm, /var/log/slurm, /run/{slurm,munge,mysqld}.
# Environment:
#   SLURM_LOCAL_MEM_MB  the node's RealMemory in MB (default: what slurmd -C
#                       detects minus 1024 MB for the daemons and the system)
set -euo pipefail

PROG="tools/slurm_local.sh"
CLUSTER="attnspec-local"
PARTITION="main"
ACCOUNT="attnspec"

# The versions this script was tested with (Debian 12 "bookworm", 2026-12).
# A Debian point release replaces a version on the mirror with its successor;
# a successor with the same upstream version (e.g. 22.05.8-4+deb12u4) is then
# installed with a warning, any other is refused.
PINNED=(
  "munge=0.5.15-2+deb12u1"
  "slurmctld=22.05.8-4+deb12u3"
  "slurmd=22.05.8-4+deb12u3"
  "slurmdbd=22.05.8-4+deb12u3"
  "slurm-client=22.05.8-4+deb12u3"
  "slurm-wlm-basic-plugins=22.05.8-4+deb12u3"
  "slurm-wlm-mysql-plugin=22.05.8-4+deb12u3"
  "mariadb-server=1:10.11.18-0+deb12u1"
  "mariadb-client=1:10.11.18-0+deb12u1"
)

CONF_DIR=/etc/slurm
STATE_DIR=/var/lib/slurm
LOG_DIR=/var/log/slurm
RUN_DIR=/run/slurm
MARKER="# Written by ${PROG} (attnspec): a one-node test cluster."

say() { echo "${PROG}: $*"; }
die() {
  echo "${PROG}: $*" >&2
  exit 1
}

# Where this script cannot work, say so once and stop (exit 2: the test skips).
refuse_unless_possible() {
  local why=""
  if [[ $(id -u) -ne 0 ]]; then
    why="it must run as root (it installs packages and starts system daemons)"
  elif ! command -v apt-get >/dev/null || ! command -v dpkg-query >/dev/null; then
    why="it needs apt-get and dpkg (Debian or Ubuntu)"
  elif [[ -e ${CONF_DIR}/slurm.conf ]] && ! grep -qF "${MARKER}" "${CONF_DIR}/slurm.conf"; then
    why="${CONF_DIR}/slurm.conf exists and was not written by this script (a real SLURM installation: use it, see docs/cluster.md)"
  fi
  if [[ -n ${why} ]]; then
    echo "${PROG}: cannot run here: ${why}." >&2
    exit 2
  fi
}

# ---------------------------------------------------------------------------
# Installation
# ---------------------------------------------------------------------------

installed_version() { dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null | sed -n 's/^install ok installed //p'; }
candidate_version() { apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p'; }
upstream() { local v=${1#*:}; echo "${v%-*}"; } # 1:10.11.18-0+deb12u1 -> 10.11.18

# The apt arguments pkg=version of the pinned packages still to install.
packages_to_install() {
  local spec pkg want have candidate
  for spec in "${PINNED[@]}"; do
    pkg=${spec%%=*} want=${spec#*=}
    have=$(installed_version "${pkg}")
    if [[ -n ${have} && $(upstream "${have}") == "$(upstream "${want}")" ]]; then
      continue
    fi
    if apt-cache madison "${pkg}" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' | grep -qxF "${want}"; then
      echo "${pkg}=${want}"
      continue
    fi
    candidate=$(candidate_version "${pkg}")
    if [[ -n ${candidate} && ${candidate} != "(none)" && $(upstream "${candidate}") == "$(upstream "${want}")" ]]; then
      say "warning: ${pkg} ${want} is no longer on the mirror; installing ${candidate} (same upstream version)" >&2
      echo "${pkg}=${candidate}"
      continue
    fi
    die "${pkg} ${want} is not available from apt (candidate: ${candidate:-none}); update PINNED in ${PROG} after testing the new version"
  done
}

install_packages() {
  # Quick path: every pinned package is installed (apt is not consulted).
  local spec pkg missing=0
  for spec in "${PINNED[@]}"; do
    pkg=${spec%%=*}
    [[ $(upstream "$(installed_version "${pkg}")") == "$(upstream "${spec#*=}")" ]] || missing=1
  done
  ((missing)) || return 0
  # Package lists never fetched (or without SLURM): fetch them once, Debian mirrors only.
  if [[ -z $(apt-cache madison slurmctld 2>/dev/null) ]]; then
    say "apt-get update"
    apt-get update -qq
  fi
  local wanted
  wanted=$(packages_to_install)
  say "installing ${wanted//$'\n'/ }"
  # Keep apt from starting the daemons itself (this script starts them, as
  # configured below): policy-rc.d exit 101 = "do not start services".
  local policy=/usr/sbin/policy-rc.d made_policy=0
  if [[ ! -e ${policy} ]]; then
    printf '#!/bin/sh\nexit 101\n' >"${policy}"
    chmod 755 "${policy}"
    made_policy=1
  fi
  local rc=0
  # shellcheck disable=SC2086  # one package=version per word
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${wanted} >/dev/null || rc=$?
  if ((made_policy)); then rm -f "${policy}"; fi
  ((rc == 0)) || die "apt-get install failed (exit ${rc}; see the messages above)"
}

# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------

# Write $2 to $1 (mode $3, owner $4) if it differs; return 0 if it changed.
write_if_changed() {
  local path=$1 content=$2 mode=$3 owner=$4
  if [[ -f ${path} ]] && [[ "$(cat "${path}")" == "${content}" ]]; then
    return 1
  fi
  install -m "${mode}" -o "${owner%%:*}" -g "${owner##*:}" /dev/null "${path}"
  printf '%s\n' "${content}" >"${path}"
  return 0
}

# The node line from what slurmd detects (CPUs, sockets, cores, threads, memory).
node_line() {
  local detected real_memory
  detected=$(slurmd -C | head -n 1) # NodeName=vm CPUs=2 Boards=1 ... RealMemory=24105
  real_memory=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"${detected}")
  real_memory=${SLURM_LOCAL_MEM_MB:-$((real_memory - 1024))}
  sed "s/RealMemory=[0-9]*/RealMemory=${real_memory}/; s/^NodeName=[^ ]*/NodeName=$(hostname -s) NodeAddr=127.0.0.1/" <<<"${detected}"
}

slurm_conf() {
  cat <<EOF
${MARKER}
# Regenerated by each start; edit the script, not this file.
ClusterName=${CLUSTER}
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=${STATE_DIR}/slurmctld
SlurmdSpoolDir=${STATE_DIR}/slurmd
SlurmctldPidFile=${RUN_DIR}/slurmctld.pid
SlurmdPidFile=${RUN_DIR}/slurmd.pid
SlurmctldLogFile=${LOG_DIR}/slurmctld.log
SlurmdLogFile=${LOG_DIR}/slurmd.log
# Each job in cgroups (v1 here): its processes are tracked and killed together
# (scancel, time limit), and its memory is limited to what it requested, as on
# most clusters (a job above it is killed: state OUT_OF_MEMORY).
ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup
JobAcctGatherType=jobacct_gather/cgroup
# Memory and CPU sampled every 2 s (the default 30 s misses most test jobs).
JobAcctGatherFrequency=task=2
# Cores and memory are what jobs are scheduled by (--cpus-per-task, --mem).
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# Accounting through slurmdbd: sacct answers for finished jobs too.
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
# Keep each job's --comment (the plugin writes the rule and wildcards there).
AccountingStoreFlags=job_comment
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
# Seconds from scancel (or the time limit) to SIGKILL; clusters often use 30.
# The job's Snakemake takes the SIGTERM and waits for its script, which runs on
# until the SIGKILL (the delays measured: docs/benchmark.md). Short here, so
# that a cancelled test job is killed mid-script as a long job is on a cluster.
KillWait=2
MinJobAge=300
SlurmctldTimeout=60
SlurmdTimeout=120
$(node_line) State=UNKNOWN
PartitionName=${PARTITION} Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

cgroup_conf() {
  cat <<EOF
${MARKER}
CgroupPlugin=autodetect
ConstrainCores=yes
ConstrainRAMSpace=yes
EOF
}

# The database password of the slurm user: kept from an earlier start, else new.
storage_pass() {
  local old
  old=$(sed -n 's/^StoragePass=//p' "${CONF_DIR}/slurmdbd.conf" 2>/dev/null || true)
  if [[ -n ${old} ]]; then echo "${old}"; else head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9'; fi
}

slurmdbd_conf() {
  cat <<EOF
${MARKER}
AuthType=auth/munge
DbdHost=localhost
SlurmUser=slurm
PidFile=${RUN_DIR}/slurmdbd.pid
LogFile=${LOG_DIR}/slurmdbd.log
# MariaDB on this machine, reached through its socket (no network port).
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StoragePass=$1
StorageLoc=slurm_acct_db
EOF
}

# ---------------------------------------------------------------------------
# Daemons
# ---------------------------------------------------------------------------

# The pid in pid file $1 if that process runs program $2, else nothing.
running_pid() {
  local pid
  pid=$(cat "$1" 2>/dev/null || true)
  if [[ -n ${pid} ]] && kill -0 "${pid}" 2>/dev/null && [[ $(cat "/proc/${pid}/comm" 2>/dev/null) == "$2" ]]; then
    echo "${pid}"
  fi
}

MUNGE_PID=/run/munge/munged.pid
MARIADB_PID=/run/mysqld/mysqld.pid
MARIADB_SOCKET=/run/mysqld/mysqld.sock
DAEMONS=(munged mariadbd slurmdbd slurmctld slurmd) # start order; stop is the reverse

pid_file() {
  case $1 in
  munged) echo "${MUNGE_PID}" ;;
  mariadbd) echo "${MARIADB_PID}" ;;
  *) echo "${RUN_DIR}/$1.pid" ;;
  esac
}

# Wait up to $1 seconds for the command $2... to succeed.
wait_for() {
  local seconds=$1
  shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

munge_works() { munge -n | unmunge; }

start_munge() {
  install -d -o munge -g munge -m 0755 /run/munge
  if [[ ! -s /etc/munge/munge.key ]]; then
    mungekey --create --keyfile=/etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key
    chmod 0400 /etc/munge/munge.key
  fi
  runuser -u munge -- /usr/sbin/munged --pid-file="${MUNGE_PID}"
  wait_for 10 munge_works || die "munged did not start (see /var/log/munge/munged.log)"
}

start_mariadb() {
  install -d -o mysql -g mysql -m 0755 /run/mysqld
  install -d -o mysql -g adm -m 2750 /var/log/mysql
  if [[ ! -d /var/lib/mysql/mysql ]]; then
    mariadb-install-db --user=mysql --datadir=/var/lib/mysql >/dev/null
  fi
  # mariadbd does not detach: start it in a session of its own.
  setsid /usr/sbin/mariadbd --user=mysql --skip-networking --socket="${MARIADB_SOCKET}" \
    --pid-file="${MARIADB_PID}" --log-error=/var/log/mysql/error.log \
    </dev/null >/dev/null 2>&1 &
  wait_for 60 mariadb-admin --socket="${MARIADB_SOCKET}" ping ||
    die "MariaDB did not start (see /var/log/mysql/error.log)"
}

# The database user slurmdbd connects as (MariaDB's root logs in by socket).
grant_database() {
  mariadb --socket="${MARIADB_SOCKET}" <<EOF
CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY '$1';
ALTER USER 'slurm'@'localhost' IDENTIFIED BY '$1';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
EOF
}

start_slurm_daemon() {
  local name=$1
  "/usr/sbin/${name}" # each detaches and writes its pid file
  wait_for 30 running_pid_is_set "${name}" || die "${name} did not start (see ${LOG_DIR}/${name}.log)"
}
running_pid_is_set() { [[ -n $(running_pid "$(pid_file "$1")" "$1") ]]; }

# The cluster, an account and the root user (and a sudo caller) in the accounting database.
register_accounting() {
  wait_for 60 sacctmgr -n list cluster || die "slurmdbd does not answer (see ${LOG_DIR}/slurmdbd.log)"
  if [[ -z $(sacctmgr -n -P list cluster "${CLUSTER}" format=cluster) ]]; then
    sacctmgr -i add cluster "${CLUSTER}" >/dev/null
  fi
  if [[ -z $(sacctmgr -n -P list account "${ACCOUNT}" format=account) ]]; then
    sacctmgr -i add account "${ACCOUNT}" cluster="${CLUSTER}" \
      description="attnspec test jobs" organization=attnspec >/dev/null
  fi
  local user
  for user in root ${SUDO_USER:-}; do
    if [[ -z $(sacctmgr -n -P list assoc user="${user}" account="${ACCOUNT}" format=user) ]]; then
      sacctmgr -i add user "${user}" account="${ACCOUNT}" cluster="${CLUSTER}" >/dev/null
    fi
    # Jobs without -A are charged to it (root's default account is otherwise "root").
    sacctmgr -i modify user "${user}" set defaultaccount="${ACCOUNT}" >/dev/null || true
  done
}

node_state() { sinfo -h -N -o '%T' 2>/dev/null | head -n 1; }
node_registered() { [[ $(node_state) =~ ^(idle|mixed|allocated|drained|draining) ]]; }
no_jobs() { [[ -z $(squeue -h -o %A 2>/dev/null) ]]; }

start() {
  refuse_unless_possible
  install_packages
  install -d -o slurm -g slurm -m 0755 "${STATE_DIR}" "${STATE_DIR}/slurmctld" "${STATE_DIR}/slurmd" "${LOG_DIR}" "${RUN_DIR}"
  install -d -m 0755 "${CONF_DIR}"

  # A daemon whose configuration changed is restarted, the others are kept.
  local changed=() pass
  pass=$(storage_pass)
  write_if_changed "${CONF_DIR}/slurmdbd.conf" "$(slurmdbd_conf "${pass}")" 0600 slurm:slurm && changed+=(slurmdbd)
  write_if_changed "${CONF_DIR}/cgroup.conf" "$(cgroup_conf)" 0644 root:root && changed+=(slurmctld slurmd)
  write_if_changed "${CONF_DIR}/slurm.conf" "$(slurm_conf)" 0644 root:root && changed+=(slurmctld slurmd)
  local name
  for name in "${changed[@]}"; do stop_daemon "${name}"; done

  [[ -n $(running_pid "${MUNGE_PID}" munged) ]] || start_munge
  [[ -n $(running_pid "${MARIADB_PID}" mariadbd) ]] || start_mariadb
  grant_database "${pass}"
  [[ -n $(running_pid "$(pid_file slurmdbd)" slurmdbd) ]] || start_slurm_daemon slurmdbd
  register_accounting
  [[ -n $(running_pid "$(pid_file slurmctld)" slurmctld) ]] || start_slurm_daemon slurmctld
  [[ -n $(running_pid "$(pid_file slurmd)" slurmd) ]] || start_slurm_daemon slurmd

  # The node comes up idle (ReturnToService=2); a node left drained is resumed.
  wait_for 60 node_registered ||
    die "the node did not register (state: $(node_state); see ${LOG_DIR}/slurmd.log)"
  if [[ $(node_state) =~ ^drain ]]; then
    scontrol update nodename="$(hostname -s)" state=resume
  fi
  say "running: cluster ${CLUSTER}, partition ${PARTITION}, account ${ACCOUNT}; node $(sinfo -h -N -o '%N %c CPUs %m MB %T')"
}

process_gone() { ! kill -0 "$1" 2>/dev/null; }

# Stop one daemon by its pid file: SIGTERM, then SIGKILL after 30 s.
stop_daemon() {
  local name=$1 pid
  pid=$(running_pid "$(pid_file "${name}")" "${name}")
  [[ -z ${pid} ]] && return 0
  if [[ ${name} == mariadbd ]]; then
    mariadb-admin --socket="${MARIADB_SOCKET}" shutdown 2>/dev/null || kill -TERM "${pid}"
  else
    kill -TERM "${pid}"
  fi
  if ! wait_for 30 process_gone "${pid}"; then
    say "warning: ${name} (pid ${pid}) ignored SIGTERM for 30 s: killed" >&2
    kill -KILL "${pid}" 2>/dev/null || true
  fi
  say "stopped ${name} (pid ${pid})"
}

stop() {
  refuse_unless_possible
  # Jobs first, while slurmctld can still end them (and record them as CANCELLED).
  if [[ -n $(running_pid "$(pid_file slurmctld)" slurmctld) ]]; then
    local jobs
    jobs=$(squeue -h -o %A 2>/dev/null | tr '\n' ' ')
    if [[ -n ${jobs// /} ]]; then
      say "cancelling jobs ${jobs}"
      # shellcheck disable=SC2086  # one job id per word
      scancel ${jobs}
      wait_for 60 no_jobs || say "warning: jobs still listed after 60 s" >&2
    fi
  fi
  local i
  for ((i = ${#DAEMONS[@]} - 1; i >= 0; i--)); do stop_daemon "${DAEMONS[i]}"; done
  # Without a controller, every SLURM client that finds slurm.conf retries for
  # about 9 s, and the SLURM executor plugin runs one (scontrol) whenever it is
  # loaded, that is in every Snakemake command on this machine, local runs too.
  # Without slurm.conf they fail at once; start writes it again.
  if [[ -f ${CONF_DIR}/slurm.conf ]]; then
    rm -f "${CONF_DIR}/slurm.conf"
    say "removed ${CONF_DIR}/slurm.conf (start writes it again)"
  fi
}

status() {
  local name pid down=0
  for name in "${DAEMONS[@]}"; do
    pid=$(running_pid "$(pid_file "${name}")" "${name}")
    if [[ -n ${pid} ]]; then
      echo "${name}: running (pid ${pid})"
    else
      echo "${name}: stopped"
      down=1
    fi
  done
  if ((down == 0)); then
    sinfo -N -o '%N %P %c %m %T'
  fi
  return "${down}"
}

case ${1:-start} in
start) start ;;
stop) stop ;;
status) status ;;
*)
  echo "usage: ${PROG} [start|stop|status]" >&2
  exit 64
  ;;
esac
