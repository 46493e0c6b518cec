#!/usr/bin/env bash
# Stops every daemon bin/start-cluster.sh started (tablet servers, masters, HDFS, ZooKeeper).
#   bin/stop-cluster.sh [--clean]    --clean also deletes the run directory's data
set -euo pipefail
LOGBASE_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bin/lib.sh
source "$LOGBASE_HOME/bin/lib.sh"
RUN="$(lb_run_dir)"
export LOGBASE_RUN_DIR="$RUN"
DAEMON="$LOGBASE_HOME/bin/logbase-daemon.sh"
if [[ ! -d "$RUN/pids" ]]; then
  echo "no cluster running under $RUN"
  for pids in "$LOGBASE_HOME"/run/*/pids; do
    if compgen -G "$pids/*.pid" > /dev/null; then
      echo "  one runs under ${pids%/pids}: stop it with $(lb_stop_command "${pids%/pids}")"
    fi
  done
  exit 0
fi
if ! compgen -G "$RUN/pids/*.pid" > /dev/null; then
  echo "no cluster running under $RUN (its processes were stopped already)"
fi
# By pid file or supervisor file (--supervise: a daemon between two runs has only the latter).
names() { # PREFIX
  local f
  for f in "$RUN"/pids/"$1"*.pid "$RUN"/pids/"$1"*.supervisor; do
    [[ -e "$f" ]] && basename "${f%.*}"
  done | sort -u
}
for n in $(names ts); do "$DAEMON" stop "$n"; done
for n in $(names master); do "$DAEMON" stop "$n"; done
for n in datanode namenode zookeeper; do
  if [[ -e "$RUN/pids/$n.pid" || -e "$RUN/pids/$n.supervisor" ]]; then "$DAEMON" stop "$n"; fi
done
if [[ "${1:-}" == "--clean" ]]; then
  rm -rf "$RUN"
  echo "removed $RUN"
fi
