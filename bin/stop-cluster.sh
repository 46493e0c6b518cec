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
for f in "$RUN"/pids/ts*.pid; do [[ -e "$f" ]] && "$DAEMON" stop "$(basename "$f" .pid)"; done
for f in "$RUN"/pids/master*.pid; do [[ -e "$f" ]] && "$DAEMON" stop "$(basename "$f" .pid)"; done
for n in datanode namenode zookeeper; do [[ -e "$RUN/pids/$n.pid" ]] && "$DAEMON" stop "$n"; done
if [[ "${1:-}" == "--clean" ]]; then
  rm -rf "$RUN"
  echo "removed $RUN"
fi
