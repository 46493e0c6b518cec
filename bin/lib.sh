#!/usr/bin/env bash
# Shared by the bin/ scripts: build on demand, classpath, running a LogBase JVM.

: "${LOGBASE_HOME:?LOGBASE_HOME must be set}"
LB_CP_FILE="$LOGBASE_HOME/logbase-dist/target/runtime-classpath.txt"

# The heap on transparent huge pages, where the kernel's THP mode is "madvise" or "always" (elsewhere
# on normal pages): a full scan writes each value it returns into new heap memory, and with 4 KiB
# pages that made it about 30% slower on the benchmark machine (docs/benchmarks.md, "Compaction").
# The option is Linux's only: a JVM elsewhere would refuse to start with it, so there it is left out.
if [[ "$(uname -s)" == Linux ]]; then
  LB_HUGE_PAGES="-XX:+UseTransparentHugePages"
else
  LB_HUGE_PAGES=""
fi
# The JVM options of a cluster daemon unless $LOGBASE_DAEMON_OPTS replaces them (all of them).
LB_DAEMON_OPTS_DEFAULT="-Xmx512m $LB_HUGE_PAGES"

# The cluster's run directory ($LOGBASE_RUN_DIR, default run/cluster) as an absolute path: a relative
# one is taken from the current directory, like any path given on a command line.
lb_run_dir() {
  local run="${LOGBASE_RUN_DIR:-$LOGBASE_HOME/run/cluster}"
  [[ "$run" == /* ]] || run="$PWD/$run"
  echo "$run"
}

# The command that stops the cluster whose run directory is $1, as the user can type it here.
lb_stop_command() {
  local run="$1" bin="$LOGBASE_HOME/bin"
  if [[ "$PWD" == "$LOGBASE_HOME" ]]; then
    bin="bin"
    run="${run#"$LOGBASE_HOME"/}"
  fi
  if [[ "$1" == "$LOGBASE_HOME/run/cluster" ]]; then
    echo "$bin/stop-cluster.sh"
  else
    echo "LOGBASE_RUN_DIR=$run $bin/stop-cluster.sh"
  fi
}

# Prints a script's usage: its leading comment block, after the #! line.
lb_usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$1"
}

# Builds the jars and records the classpath when they are missing or older than the sources.
lb_ensure_built() {
  local stamp="$LB_CP_FILE"
  if [[ -f "$stamp" ]] && \
     [[ -z "$(find "$LOGBASE_HOME" -path '*/src/main/*' -newer "$stamp" -print -quit 2>/dev/null)" ]] && \
     [[ -z "$(find "$LOGBASE_HOME" -maxdepth 2 -name pom.xml -newer "$stamp" -print -quit 2>/dev/null)" ]]; then
    return
  fi
  local log="$LOGBASE_HOME/run/build.log" start=$SECONDS
  mkdir -p "$LOGBASE_HOME/run"
  if [[ -f "$stamp" ]]; then
    echo "logbase: sources changed since the last build: building again (about a minute; log in run/build.log)" >&2
  else
    echo "logbase: building LogBase with Maven, tests skipped (first build: about 3 to 6 minutes on 2 cores, more" \
      "while Maven downloads the dependencies; later builds are quicker; log in run/build.log)" >&2
  fi
  # One line per module, without Maven's colour codes; the whole output goes to the log.
  if ! (cd "$LOGBASE_HOME" && mvn -B -ntp -DskipTests -pl logbase-dist,logbase-tpcw -am package 2>&1) \
      | sed -u 's/\x1b\[[0-9;]*m//g' | tee "$log" \
      | sed -un 's/^\[INFO\] Building \(LogBase.*\) [0-9.]*-SNAPSHOT *\[\([0-9]*\/[0-9]*\)\]$/  [\2] \1/p' >&2; then
    echo "logbase: the build failed; its errors (all of it in $log):" >&2
    grep -E '^\[ERROR\]' "$log" | head -n 30 >&2
    exit 1
  fi
  touch "$stamp" # the classpath file is rewritten only when the classpath changes
  echo "logbase: built in $((SECONDS - start)) s" >&2
}

# conf/ first: a program run with this classpath and no logging set-up of its own finds
# conf/log4j.properties (warnings to stderr) instead of log4j's "No appenders" warning.
lb_classpath() {
  lb_ensure_built
  local jars="$LOGBASE_HOME/conf" m
  for m in common tabletserver master client ycsb dist tpcw; do
    jars="$jars:$(ls "$LOGBASE_HOME"/logbase-$m/target/logbase-$m-*.jar 2>/dev/null | grep -v -- '-tests.jar' | head -n 1)"
  done
  echo "${jars#:}:$(cat "$LB_CP_FILE")"
}

# Runs a main class in the foreground with LogBase's logging configuration.
lb_java() {
  local cp
  cp="$(lb_classpath)"
  exec java ${LOGBASE_JAVA_OPTS:--Xmx1g} \
    -Dlog4j.configuration="file:$LOGBASE_HOME/conf/log4j.properties" \
    -Dlogbase.root.logger="${LOGBASE_ROOT_LOGGER:-INFO,console}" \
    ${LB_LOG_OPTS:-} \
    -cp "${LOGBASE_EXTRA_CP:+$LOGBASE_EXTRA_CP:}$cp" "$@"
}

# Runs a command-line tool: its INFO log (ZooKeeper, Curator, Hadoop, LogBase) goes to
# run/logs/NAME.log ($LOGBASE_LOG_DIR), the terminal gets THRESHOLD and above (OFF: nothing).
#   lb_tool NAME THRESHOLD MAIN ARGS...
lb_tool() {
  local name="$1" threshold="$2" dir="${LOGBASE_LOG_DIR:-$LOGBASE_HOME/run/logs}"
  shift 2
  mkdir -p "$dir"
  LOGBASE_ROOT_LOGGER="${LOGBASE_ROOT_LOGGER:-INFO,console,file}" \
    LB_LOG_OPTS="-Dlogbase.console.threshold=$threshold -Dlogbase.log.dir=$dir -Dlogbase.log.file=$name.log" \
    lb_java "$@"
}
