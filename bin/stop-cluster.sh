#!/usr/bin/env bash
# Stops every daemon bin/start-cluster.sh started (tablet servers, masters, HDFS, ZooKeeper).
#   bin/stop-cluster.sh [--clean]    --clean also deletes the run directory's data
set -euo pipefail
LOGBASE_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUN="${LOGBASE_RUN_DIR:-$LOGBASE_HOME/run/cluster}"
export LOGBASE_RUN_DIR="$RUN"
DAEMON="$LOGBASE_HOME/bin/logbase-daemon.sh"
[[ -d "$RUN/pids" ]] || { echo "no cluster running under $RUN"; exit 0; }
for f in "$RUN"/pids/ts*.pid; do [[ -e "$f" ]] && "$DAEMON" stop "$(basename "$f" .pid)"; done
for f in "$RUN"/pids/master*.pid; do [[ -e "$f" ]] && "$DAEMON" stop "$(basename "$f" .pid)"; done
for n in datanode namenode zookeeper; do [[ -e "$RUN/pids/$n.pid" ]] && "$DAEMON" stop "$n"; done
if [[ "${1:-}" == "--clean" ]]; then
  rm -rf "$RUN"
  echo "removed $RUN"
fi
