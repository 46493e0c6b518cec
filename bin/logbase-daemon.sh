#!/usr/bin/env bash
# Starts or stops one LogBase cluster daemon in the background, with its log and pid file under the
# run directory ($LOGBASE_RUN_DIR, default run/cluster).
#
#   bin/logbase-daemon.sh start zookeeper
#   bin/logbase-daemon.sh start namenode | datanode
#   bin/logbase-daemon.sh start master NAME PORT
#   bin/logbase-daemon.sh start tabletserver ID PORT
#   bin/logbase-daemon.sh stop NAME          (NAME: zookeeper, namenode, datanode, master1, ts1, ...)
#   bin/logbase-daemon.sh kill NAME          (kill -9, for failure drills)
#
# With LOGBASE_SUPERVISE=true (bin/start-cluster.sh --supervise) a daemon that exits with a non-zero
# status (a tablet server or master whose ZooKeeper session expired, or a kill -9) is started again
# after 5 s, and after 10, 20, ... up to 300 s while its runs keep ending within a minute; stop
# stops it for good, kill leaves the restart to the supervisor.
#
# bin/start-cluster.sh writes the configuration these daemons read ($RUN/conf).
set -euo pipefail
LOGBASE_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bin/lib.sh
source "$LOGBASE_HOME/bin/lib.sh"
RUN="$(lb_run_dir)"

usage() { lb_usage "${BASH_SOURCE[0]}"; }

pidfile() { echo "$RUN/pids/$1.pid"; }

# Under LOGBASE_SUPERVISE=true a supervisor loop starts the daemon again when it exits with a
# non-zero status (a tablet server or master whose ZooKeeper session expired, a kill -9): after 5 s,
# and ever later (up to 300 s) while its runs end within a minute.
supervisorfile() { echo "$RUN/pids/$1.supervisor"; }

alive() { # PIDFILE
  [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null
}

running() { # the daemon, or its supervisor between two runs of it
  alive "$(pidfile "$1")" || alive "$(supervisorfile "$1")"
}

launch() { # NAME MAIN ARGS...
  local name="$1"; shift
  mkdir -p "$RUN/logs" "$RUN/pids"
  # Two starts of one daemon at once (two scripts, an impatient operator) would both find it not
  # running and both launch it, the pid file naming only one: the other runs on untracked.
  local lock
  exec {lock}> "$RUN/pids/$name.lock"
  if command -v flock > /dev/null && ! flock -n "$lock"; then
    echo "$name is being started by another command right now" >&2
    return 1
  fi
  if running "$name"; then
    echo "$name is already running (pid $(cat "$(pidfile "$name")"))" >&2
    return 0
  fi
  local cp log="$RUN/logs/$name.log"; cp="$(lb_classpath)"
  # Appended, never truncated: a restarted daemon's log keeps the lines that tell why it died.
  printf '\n==== %s: starting %s (%s)\n' "$(date '+%Y-%m-%d %H:%M:%S')" "$name" "$*" >> "$log"
  local java=(java ${LOGBASE_DAEMON_OPTS:-$LB_DAEMON_OPTS_DEFAULT}
    -Dlog4j.configuration="file:$LOGBASE_HOME/conf/log4j.properties"
    -Dlogbase.root.logger="${LOGBASE_ROOT_LOGGER:-INFO,console}"
    -Dhadoop.log.dir="$RUN/logs"
    -cp "$RUN/hadoop-conf:$cp" "$@")
  if [[ "${LOGBASE_SUPERVISE:-false}" != true ]]; then
    nohup "${java[@]}" >> "$log" 2>&1 < /dev/null {lock}>&- &
    echo $! > "$(pidfile "$name")"
    echo "started $name (pid $!), log $log"
    return 0
  fi
  local sup; sup="$(supervisorfile "$name")"
  rm -f "$sup.stop"
  (
    trap '' HUP
    delay=5
    while true; do
      started=$SECONDS
      "${java[@]}" >> "$log" 2>&1 < /dev/null {lock}>&- &
      echo $! > "$(pidfile "$name")"
      status=0
      wait $! || status=$?
      if [[ -e "$sup.stop" ]] || ((status == 0)); then
        break
      fi
      # A run of a minute or more was a real run: the next restart comes soon again. Runs that end
      # sooner (a bad setting, ZooKeeper away) are restarted ever later, up to every 5 minutes.
      if ((SECONDS - started >= 60)); then
        delay=5
      fi
      printf '\n==== %s: %s exited with status %s: starting it again in %s s (supervised)\n' \
        "$(date '+%Y-%m-%d %H:%M:%S')" "$name" "$status" "$delay" >> "$log"
      sleep "$delay"
      if [[ -e "$sup.stop" ]]; then
        break
      fi
      delay=$((delay * 2 > 300 ? 300 : delay * 2))
    done
    rm -f "$sup" "$sup.stop"
  ) > /dev/null 2>&1 < /dev/null {lock}>&- &
  echo $! > "$sup"
  echo "started $name under a supervisor (pid $!), log $log"
}

stop() { # NAME [SIGNAL]
  local name="$1" sig="${2:-TERM}" f pid sup
  f=$(pidfile "$name")
  sup=$(supervisorfile "$name")
  if ! running "$name"; then
    rm -f "$f" "$sup" "$sup.stop"
    echo "$name is not running"
    return 0
  fi
  if [[ "$sig" != KILL ]] && alive "$sup"; then
    touch "$sup.stop" # it stays stopped (a kill -9 drill leaves the restart to the supervisor)
    if ! alive "$f"; then # between two runs
      kill "$(cat "$sup")" 2>/dev/null || true
      if alive "$f"; then # started just before its supervisor was stopped
        kill "$(cat "$f")" 2>/dev/null || true
      fi
      rm -f "$f" "$sup" "$sup.stop"
      echo "stopped $name (its supervisor; it was between two runs)"
      return 0
    fi
  fi
  pid=$(cat "$f")
  kill "-$sig" "$pid"
  for _ in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "$name did not stop within 30 s; killing it" >&2
    kill -9 "$pid"
  fi
  if [[ "$sig" != KILL ]]; then
    for _ in $(seq 1 100); do # its supervisor, told to stop, ends with it
      alive "$sup" || break
      sleep 0.1
    done
    rm -f "$sup" "$sup.stop"
  fi
  if [[ "$sig" != KILL ]] || ! alive "$sup"; then
    rm -f "$f" # a supervisor's pid file stays: it names the run it starts next
  fi
  if [[ "$sig" == KILL ]]; then echo "killed $name (kill -9)"; else echo "stopped $name"; fi
}

action="${1:-}"; kind="${2:-}"
[[ -n "$action" && -n "$kind" ]] || { usage >&2; exit 2; }
case "$action" in
  start)
    case "$kind" in
      zookeeper) launch zookeeper org.apache.zookeeper.server.quorum.QuorumPeerMain "$RUN/conf/zoo.cfg" ;;
      namenode) launch namenode org.apache.hadoop.hdfs.server.namenode.NameNode ;;
      datanode) launch datanode org.apache.hadoop.hdfs.server.datanode.DataNode ;;
      master)
        [[ $# -ge 4 ]] || { usage >&2; exit 2; }
        launch "$3" org.logbase.master.MasterServer --config "$RUN/conf/logbase.properties" --port "$4" ;;
      tabletserver)
        [[ $# -ge 4 ]] || { usage >&2; exit 2; }
        launch "$3" org.logbase.tabletserver.server.TabletServer --id "$3" --config "$RUN/conf/logbase.properties" --port "$4" ;;
      *) echo "unknown daemon kind '$kind'" >&2; usage >&2; exit 2 ;;
    esac ;;
  stop) stop "$kind" ;;
  kill) stop "$kind" KILL ;;
  *) usage >&2; exit 2 ;;
esac
