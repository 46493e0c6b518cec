#!/usr/bin/env bash
# bin/logbase demo [--hdfs]: builds LogBase, starts a local cluster (ZooKeeper, 2 masters, 3 tablet
# servers; with --hdfs also a NameNode and a DataNode, else logs on the local disk), creates a table
# from the shell, writes, reads and scans through the shell and the Java client, kills a tablet
# server with kill -9 and shows its data back after restart. The cluster keeps running afterwards.
set -euo pipefail
LOGBASE_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export LOGBASE_RUN_DIR="${LOGBASE_RUN_DIR:-$LOGBASE_HOME/run/demo}"
export LOGBASE_ROOT_LOGGER="${LOGBASE_ROOT_LOGGER:-INFO,console}"
# shellcheck source=bin/lib.sh
source "$LOGBASE_HOME/bin/lib.sh"
ZK="localhost:${LOGBASE_ZK_PORT:-2181}"
TS_PORT="${LOGBASE_TS_PORT:-16020}"

step() { printf '\n== %s\n' "$*"; }
shell() { LOGBASE_ROOT_LOGGER=ERROR,console "$LOGBASE_HOME/bin/logbase" shell --zookeeper "$ZK" "$@"; }
client() { (LOGBASE_ROOT_LOGGER=ERROR,console lb_java org.logbase.dist.ClientDemo --zookeeper "$ZK" "$@"); }

step "Starting a fresh local cluster in $LOGBASE_RUN_DIR"
"$LOGBASE_HOME/bin/stop-cluster.sh" --clean > /dev/null
"$LOGBASE_HOME/bin/start-cluster.sh" "$@"

step "Shell: create a table with two column groups and split keys, write, read, scan"
shell -e "create demo profile:name,email stats:visits,score --splits bob,row005000; \
put demo alice name=Alice email=alice@example.org visits=1; put demo bob name=Bob score=7; \
get demo alice; put demo alice email=alice@new.example; get demo alice; scan demo; describe demo"

step "Java client: batch-load 10,000 rows, scan them back across tablets, spot gets"
client --rows 10000

step "Failure drill: kill -9 tablet server ts2 (it serves half the rows), restart it, read everything back"
"$LOGBASE_HOME/bin/logbase-daemon.sh" kill ts2
"$LOGBASE_HOME/bin/logbase-daemon.sh" start tabletserver ts2 $((TS_PORT + 1))
client --rows 10000 --verify-only
shell -e "get demo bob"

step "Cluster status"
shell -e "status"

printf '\nDEMO OK: the cluster is still running (ZooKeeper %s).\n' "$ZK"
echo "  try: bin/logbase shell --zookeeper $ZK        stop: $(lb_stop_command "$LOGBASE_RUN_DIR")"
