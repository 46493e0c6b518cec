#!/usr/bin/env bash
# Starts a LogBase cluster on this machine, every daemon a separate process: ZooKeeper, optionally
# HDFS (a NameNode and a DataNode), masters and tablet servers. Logs, pids and data go under the
# run directory ($LOGBASE_RUN_DIR, default run/cluster).
#
#   bin/start-cluster.sh [--hdfs] [--masters N] [--servers N] [--supervise]
#
# --supervise starts every daemon under a supervisor that starts it again, 5 s after it exits with a
# non-zero status: a tablet server or master whose ZooKeeper session expired (a long pause) exits
# so, and comes back empty or as a standby. While its runs end within a minute the wait doubles,
# up to 300 s.
# Without --hdfs, logs live on the local file system. To use an existing ZooKeeper or HDFS instead
# of starting them, set zookeeper.connect and/or logbase.fs.root in conf/cluster.properties.
# Run again on the same run directory, it starts only the daemons that are not running there.
set -euo pipefail
LOGBASE_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bin/lib.sh
source "$LOGBASE_HOME/bin/lib.sh"
RUN="$(lb_run_dir)"
export LOGBASE_RUN_DIR="$RUN"
DAEMON="$LOGBASE_HOME/bin/logbase-daemon.sh"

HDFS=false; MASTERS=2; SERVERS=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hdfs) HDFS=true ;;
    --masters) MASTERS="$2"; shift ;;
    --servers) SERVERS="$2"; shift ;;
    --supervise) export LOGBASE_SUPERVISE=true ;;
    -h|--help) lb_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "start-cluster.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

ZK_PORT="${LOGBASE_ZK_PORT:-2181}"
NN_PORT="${LOGBASE_NN_PORT:-8020}"
MASTER_PORT="${LOGBASE_MASTER_PORT:-16000}"
TS_PORT="${LOGBASE_TS_PORT:-16020}"

external() { # KEY: value from conf/cluster.properties, if set
  [[ -f "$LOGBASE_HOME/conf/cluster.properties" ]] || return 0
  sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*//p" "$LOGBASE_HOME/conf/cluster.properties" | tail -n 1
}
ZK_CONNECT="$(external zookeeper.connect)"
FS_ROOT="$(external logbase.fs.root)"

# A daemon that cannot bind its port dies in its log, while the checks below would talk to
# whatever holds the port (typically a cluster left running) and report this one as up. A port
# held by this run directory's own daemon of that name is fine: that daemon is left as it is and
# the others are started (a cluster one of whose daemons died is started again this way).
busy=()
ours=()
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
our_daemon() { # NAME: whether this run directory's daemon NAME runs (its pid file names a live java)
  local f="$RUN/pids/$1.pid" pid
  [[ -f "$f" ]] || return 1
  pid="$(cat "$f")"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && grep -qa java "/proc/$pid/cmdline" 2>/dev/null
}
want_port() { # PORT WHAT NAME
  if port_busy "$1"; then
    if our_daemon "$3"; then
      ours+=("$3")
    else
      busy+=("$1 ($2)")
    fi
  fi
}
[[ -n "$ZK_CONNECT" ]] || want_port "$ZK_PORT" "ZooKeeper, LOGBASE_ZK_PORT" zookeeper
if $HDFS && [[ -z "$FS_ROOT" ]]; then
  want_port "$NN_PORT" "NameNode, LOGBASE_NN_PORT" namenode
fi
for i in $(seq 1 "$MASTERS"); do
  want_port $((MASTER_PORT + i - 1)) "master$i, LOGBASE_MASTER_PORT" "master$i"
done
for i in $(seq 1 "$SERVERS"); do
  want_port $((TS_PORT + i - 1)) "ts$i, LOGBASE_TS_PORT" "ts$i"
done
if ((${#busy[@]} > 0)); then
  echo "start-cluster.sh: ports already in use: ${busy[*]}" >&2
  echo "  Is another cluster running? Stop it (LOGBASE_RUN_DIR=<its run dir> bin/stop-cluster.sh) or" \
    "choose other ports with the variables named." >&2
  exit 1
fi
keep_conf=false
if ((${#ours[@]} > 0)); then
  # The running daemons read this run directory's configuration: the others start with the same.
  before="$(cat "$RUN/conf/hdfs" 2>/dev/null || echo unknown)"
  if [[ "$before" != unknown && "$before" != "$HDFS" ]]; then
    echo "start-cluster.sh: the cluster running in $RUN was started $([[ $before == true ]] && echo with || echo without)" \
      "--hdfs; start it the same way, or stop it first ($(lb_stop_command "$RUN"))" >&2
    exit 1
  fi
  keep_conf=true
  echo "already running in $RUN, left as they are: ${ours[*]}; starting the others with its configuration"
fi

lb_ensure_built
mkdir -p "$RUN/conf" "$RUN/hadoop-conf" "$RUN/logs" "$RUN/pids" "$RUN/data"

echo "$HDFS" > "$RUN/conf/hdfs"
if [[ -z "$ZK_CONNECT" ]]; then
  ZK_CONNECT="localhost:$ZK_PORT"
  $keep_conf || cat > "$RUN/conf/zoo.cfg" <<CFG
tickTime=2000
initLimit=10
syncLimit=5
dataDir=$RUN/data/zookeeper
clientPort=$ZK_PORT
clientPortAddress=127.0.0.1
maxSessionTimeout=60000
admin.enableServer=false
4lw.commands.whitelist=ruok,stat
# The masters rewrite a table's whole metadata for each move or split (about 60 bytes a tablet):
# a snapshot, and a new transaction log, every 64 MiB written, and every hour all but the newest
# 3 snapshots and their logs are deleted, so ZooKeeper's directory stays bounded.
snapSizeLimitInKb=65536
autopurge.snapRetainCount=3
autopurge.purgeInterval=1
# ZooKeeper keeps this many recent transactions in memory (default 500): of up to 512 KiB each here.
commitLogCount=50
CFG
  "$DAEMON" start zookeeper
fi

if [[ -z "$FS_ROOT" ]]; then
  if $HDFS; then
    FS_ROOT="hdfs://localhost:$NN_PORT/logbase"
  else
    FS_ROOT="file://$RUN/data/fs"
  fi
fi
$keep_conf || cat > "$RUN/hadoop-conf/core-site.xml" <<XML
<?xml version="1.0"?>
<configuration>
  <property><name>fs.defaultFS</name><value>hdfs://localhost:$NN_PORT</value></property>
  <property><name>hadoop.tmp.dir</name><value>$RUN/data/hadoop-tmp</value></property>
</configuration>
XML
$keep_conf || cat > "$RUN/hadoop-conf/hdfs-site.xml" <<XML
<?xml version="1.0"?>
<configuration>
  <property><name>dfs.namenode.name.dir</name><value>$RUN/data/namenode</value></property>
  <property><name>dfs.datanode.data.dir</name><value>$RUN/data/datanode</value></property>
  <property><name>dfs.replication</name><value>1</value></property>
  <property><name>dfs.permissions.enabled</name><value>false</value></property>
  <property><name>dfs.namenode.rpc-address</name><value>localhost:$NN_PORT</value></property>
  <property><name>dfs.namenode.http-address</name><value>127.0.0.1:0</value></property>
  <property><name>dfs.datanode.address</name><value>127.0.0.1:0</value></property>
  <property><name>dfs.datanode.http.address</name><value>127.0.0.1:0</value></property>
  <property><name>dfs.datanode.ipc.address</name><value>127.0.0.1:0</value></property>
  <property><name>dfs.namenode.fs-limits.min-block-size</name><value>4096</value></property>
  <property><name>dfs.heartbeat.interval</name><value>1</value></property>
</configuration>
XML

if $HDFS && [[ -z "$(external logbase.fs.root)" ]]; then
  if [[ ! -d "$RUN/data/namenode/current" ]]; then
    echo "formatting the NameNode"
    java -cp "$RUN/hadoop-conf:$(lb_classpath)" -Dlog4j.configuration="file:$LOGBASE_HOME/conf/log4j.properties" \
      -Dlogbase.root.logger=WARN,console \
      org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive > "$RUN/logs/namenode-format.log" 2>&1
  fi
  "$DAEMON" start namenode
  "$DAEMON" start datanode
fi

if ! $keep_conf; then
  # Through a new file: a daemon starting meanwhile reads the old one or this one, never half of it.
  cat > "$RUN/conf/logbase.properties.new" <<PROPS
# Written by bin/start-cluster.sh
zookeeper.connect=$ZK_CONNECT
zookeeper.session.timeout.ms=6000
logbase.fs.root=$FS_ROOT
PROPS
  if [[ -f "$LOGBASE_HOME/conf/logbase.properties" ]]; then
    grep -v '^[[:space:]]*#' "$LOGBASE_HOME/conf/logbase.properties" | grep -v -e '^zookeeper.connect' -e '^logbase.fs.root' \
      >> "$RUN/conf/logbase.properties.new" || true
  fi
  mv "$RUN/conf/logbase.properties.new" "$RUN/conf/logbase.properties"
fi

check() { java -cp "$RUN/hadoop-conf:$(lb_classpath)" -Dlog4j.configuration="file:$LOGBASE_HOME/conf/log4j.properties" \
  -Dlogbase.root.logger=ERROR,console org.logbase.dist.ClusterCheck "$@"; }
check zookeeper "$ZK_CONNECT" 60
if [[ "$FS_ROOT" == hdfs://* ]]; then
  check fs "$FS_ROOT" 120
fi

for i in $(seq 1 "$MASTERS"); do
  "$DAEMON" start master "master$i" $((MASTER_PORT + i - 1))
done
for i in $(seq 1 "$SERVERS"); do
  "$DAEMON" start tabletserver "ts$i" $((TS_PORT + i - 1))
done
check cluster "$ZK_CONNECT" "$SERVERS" 120
echo "cluster up: zookeeper $ZK_CONNECT, logs on $FS_ROOT, $MASTERS masters, $SERVERS tablet servers"
echo "  shell: bin/logbase shell --zookeeper $ZK_CONNECT      stop: $(lb_stop_command "$RUN")"
