#!/usr/bin/env bash
# Cluster benchmarks on real daemons (bin/start-cluster.sh --hdfs: ZooKeeper, NameNode, DataNode,
# masters and tablet servers, each its own process), in two steps, each on a fresh cluster:
#
#  1. YCSB workloada, load then run, against 3 tablet servers.
#  2. The cost of the network path: YCSB inserts of one 1 KiB value (1 column group, 1 tablet, HFLUSH)
#     through 1 tablet server over RPC, against the storage engine's own write benchmark
#     (WriteThroughputBenchmark: as many writers, same value size and durability) run right before
#     on the same HDFS daemons. Ratio = YCSB records/s / engine records/s. Each YCSB load is watched
#     by ServerProbe (log-writer profile, group-commit batch size from DataNode packets, CPU per
#     process and thread pool), and is repeated for several thread counts to show the curve.
#
# Usage: bin/bench-cluster.sh [outdir]            (default: target/bench)
# Writes <outdir>/cluster-*.txt (YCSB output, probe and engine reports, daemon logs, the exact
# commands in cluster-commands.txt) and <outdir>/cluster-results.txt (the RESULT lines).
#
# Environment:
#   YCSB_THREADS (16), YCSB_RECORDS (100000), YCSB_OPERATIONS (150000)   step 1
#   NET_THREADS (16)         YCSB threads and engine writers of the ratio (engine needs >= 8)
#   NET_CURVE ("1 4 16 64")  YCSB thread counts of step 2; NET_THREADS is added if missing
#   NET_RECORDS (200000)     records per step-2 YCSB load (25000 per thread if that is fewer)
#   ENGINE_TRIALS (3)        WriteThroughputBenchmark trials; WRITE_ARGS: more of its flags
#   LOGBASE_ZK_PORT (22181), LOGBASE_NN_PORT (28020), LOGBASE_MASTER_PORT (26000),
#   LOGBASE_TS_PORT (26020)  ports, away from a default cluster's
#   BENCH_MVN_FLAGS          Maven flags (default: -o, offline)
#   STEPS ("1 2")            which steps to run
#   NET_YCSB_ARGS            more YCSB arguments for the step-2 loads (e.g. -p client.write.coalesce=false)
set -euo pipefail

cd "$(dirname "$0")/.."
LOGBASE_HOME="$(pwd)"
# shellcheck source=bin/lib.sh
source "$LOGBASE_HOME/bin/lib.sh"
out="${1:-target/bench}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# Outputs of an earlier run (another NET_CURVE leaves other files) would read as this run's.
rm -rf "$out"/cluster-*
began=$SECONDS

YCSB_THREADS="${YCSB_THREADS:-16}"
YCSB_RECORDS="${YCSB_RECORDS:-100000}"
YCSB_OPERATIONS="${YCSB_OPERATIONS:-150000}"
NET_THREADS="${NET_THREADS:-16}"
NET_CURVE="${NET_CURVE:-1 4 16 64}"
NET_RECORDS="${NET_RECORDS:-200000}"
ENGINE_TRIALS="${ENGINE_TRIALS:-3}"
STEPS=" ${STEPS:-1 2} "
export LOGBASE_ZK_PORT="${LOGBASE_ZK_PORT:-22181}"
export LOGBASE_NN_PORT="${LOGBASE_NN_PORT:-28020}"
export LOGBASE_MASTER_PORT="${LOGBASE_MASTER_PORT:-26000}"
export LOGBASE_TS_PORT="${LOGBASE_TS_PORT:-26020}"
ZK="localhost:$LOGBASE_ZK_PORT"
WORKLOAD=logbase-ycsb/workloads/workloada
# Run directories (daemon data and logs) of the clusters; each is deleted when its step ends.
RUNS="$LOGBASE_HOME/target/bench-cluster-runs"
commands="$out/cluster-commands.txt"
echo "# environment of every command: LOGBASE_ZK_PORT=$LOGBASE_ZK_PORT LOGBASE_NN_PORT=$LOGBASE_NN_PORT" \
  "LOGBASE_MASTER_PORT=$LOGBASE_MASTER_PORT LOGBASE_TS_PORT=$LOGBASE_TS_PORT" > "$commands"

# Build the servers, YCSB and the bench module in one reactor and write the bench classpath; nothing
# goes to ~/.m2, so this works from a fresh clone.
echo "building logbase-dist and logbase-bench..."
# shellcheck disable=SC2086
mvn -q -B ${BENCH_MVN_FLAGS--o} -DskipTests -pl logbase-dist,logbase-bench -am \
  package dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
# That build covered everything bin/logbase runs: mark it current, so that bin/logbase does not
# start a second (online) Maven build when the classpath file was left unchanged.
touch logbase-dist/target/runtime-classpath.txt
classpath="logbase-bench/target/classes:$(cat logbase-bench/target/classpath.txt)"
classpath_expr='logbase-bench/target/classes:$(cat logbase-bench/target/classpath.txt)' # for the log

# ---- processes we start, and how they are always stopped --------------------------------------
cluster_run=""   # run directory of the cluster that is up, if any
children=()      # background YCSB clients and probes still running

stop_cluster() {
  [[ -n "$cluster_run" ]] || return 0
  local run="$cluster_run" name
  cluster_run=""
  name="$(basename "$run")"
  # Keep the daemon logs (the evidence when something went wrong); the data goes.
  rm -rf "$out/cluster-$name-logs"
  cp -r "$run/logs" "$out/cluster-$name-logs" 2>/dev/null || true
  LOGBASE_RUN_DIR="$run" bin/stop-cluster.sh --clean > "$out/cluster-$name-stop.txt" 2>&1 \
    || echo "stopping the cluster in $run failed; see $out/cluster-$name-stop.txt" >&2
}

cleanup() {
  local p
  for p in "${children[@]}"; do
    kill "$p" 2>/dev/null || true
  done
  stop_cluster
  rmdir "$RUNS" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Appends a command, exactly as run, to cluster-commands.txt (the long bench classpath as the
# expression that makes it).
log_cmd() {
  local a
  for a in "$@"; do
    if [[ "$a" == "$classpath" ]]; then
      printf '"%s" ' "$classpath_expr"
    else
      printf '%q ' "$a"
    fi
  done >> "$commands"
  echo >> "$commands"
}

start_cluster() { # NAME SERVERS
  local run="$RUNS/$1"
  if [[ -d "$run/pids" ]]; then # left running by a run that was killed
    LOGBASE_RUN_DIR="$run" bin/stop-cluster.sh --clean > /dev/null
  fi
  rm -rf "$run"
  # The daemons read this from $run/hadoop-conf (start-cluster.sh writes the other files there):
  # Hadoop's JMX metrics are a cache refreshed once per period, 10 s by default, too coarse for
  # ServerProbe's DataNode packet counts at the edges of a load.
  mkdir -p "$run/hadoop-conf"
  echo '*.period=1' > "$run/hadoop-conf/hadoop-metrics2.properties"
  cluster_run="$run" # before starting: a half-started cluster is stopped too
  echo "starting a cluster with $2 tablet server(s) over HDFS in $run"
  local argv=(env LOGBASE_RUN_DIR="$run" bin/start-cluster.sh --hdfs --servers "$2")
  echo "# with $run/hadoop-conf/hadoop-metrics2.properties: *.period=1" >> "$commands"
  log_cmd "${argv[@]}"
  if ! "${argv[@]}" > "$out/cluster-$1-start.txt" 2>&1; then
    tail -n 20 "$out/cluster-$1-start.txt" >&2
    return 1
  fi
  tail -n 2 "$out/cluster-$1-start.txt" | head -n 1
}

pid_of() { cat "$cluster_run/pids/$1.pid"; }

# The other daemons of the cluster as name=pid,... (the probe reports their CPU too).
other_daemons() {
  local f n list=""
  for f in "$cluster_run"/pids/*.pid; do
    n="$(basename "$f" .pid)"
    [[ "$n" == ts1 || "$n" == datanode ]] || list+="$n=$(cat "$f"),"
  done
  echo "${list%,}"
}

# Sets argv to a YCSB command through bin/logbase (which execs the JVM: the command's pid is YCSB's).
ycsb_argv() { # load|run ARGS...
  argv=(env LOGBASE_RUN_DIR="$cluster_run" LOGBASE_ROOT_LOGGER=WARN,console
    bin/logbase ycsb "$1" -P "$WORKLOAD" -p logbase.zookeeper="$ZK" "${@:2}" -s)
  log_cmd "${argv[@]}"
}

# Runs YCSB; its summary (stdout) goes to FILE.txt, status lines and logs to FILE.log.
ycsb() { # FILE load|run ARGS...
  local f="$1" argv
  shift
  echo ">>> YCSB $1 ${*:2}, output in $f.txt"
  ycsb_argv "$@"
  "${argv[@]}" > "$f.txt" 2> "$f.log" || { tail -n 20 "$f.log" >&2; return 1; }
  grep -E '^\[(OVERALL|INSERT|READ|UPDATE)\], (Throughput|AverageLatency|95th|99th)' "$f.txt" || true
}

# A YCSB load watched by ServerProbe from YCSB's first status line until the client exits.
ycsb_probed() { # FILE ARGS...
  local f="$1" argv ycsb_pid probe_pid status=0
  shift
  echo ">>> YCSB load $*, output in $f.txt, probe in $f-probe.txt"
  ycsb_argv load "$@"
  "${argv[@]}" > "$f.txt" 2> "$f.log" &
  ycsb_pid=$!
  children+=("$ycsb_pid")
  argv=(java -Xmx128m -cp "$classpath" org.logbase.bench.engine.ServerProbe --name "$(basename "$f").probe"
    --server-pid "$(pid_of ts1)" --datanode-pid "$(pid_of datanode)" --client-pid "$ycsb_pid"
    --start-file "$f.log" --pids "$(other_daemons)")
  log_cmd "${argv[@]}"
  "${argv[@]}" > "$f-probe.txt" 2>&1 &
  probe_pid=$!
  children+=("$probe_pid")
  wait "$ycsb_pid" || { status=1; tail -n 20 "$f.log" >&2; }
  wait "$probe_pid" || { status=1; tail -n 20 "$f-probe.txt" >&2; }
  children=()
  return $status
}

# ---- reading the outputs ------------------------------------------------------------------------
ycsb_value() { # FILE SECTION FIELD: the number YCSB printed as "[SECTION], FIELD, number"
  awk -F', ' -v s="[$2]" -v f="$3" '$1 == s && $2 == f { printf "%.1f", $3 }' "$1"
}

# Throughput after YCSB's first 10 s (the fresh client JVM compiling its hot paths), from its status
# lines at multiples of 10 s; n/a if the load was too short for two of those.
ycsb_steady() { # FILE.log
  awk '/ [0-9]+ sec: [0-9]+ operations;/ {
         for (i = 1; i <= NF; i++) if ($i == "sec:") { t = $(i - 1); n = $(i + 1) }
         if (t >= 10 && t % 10 == 0) { if (!a) { a = t; an = n } else { b = t; bn = n } }
       }
       END { if (b) printf "%.1f", (bn - an) / (b - a); else printf "n/a" }' "$1"
}

result_value() { # FILE KEY: KEY's value on FILE's RESULT line
  sed -n "s/^RESULT .* $2=\([^ ]*\).*/\1/p" "$1" | tail -n 1
}

calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }

results="$out/cluster-results.txt"
: > "$results"
result() { # NAME KEY VALUE ...: one RESULT line, like Report.result in the Java benchmarks
  local line="RESULT name=$1"
  shift
  while (($# >= 2)); do
    line+=" $1=$2"
    shift 2
  done
  echo "$line" >> "$results"
}

# ---- step 1: YCSB workloada on 3 tablet servers -------------------------------------------------
if [[ "$STEPS" == *" 1 "* ]]; then
echo
echo "=== step 1: YCSB $WORKLOAD, $YCSB_RECORDS records, $YCSB_OPERATIONS operations, $YCSB_THREADS threads, 3 tablet servers"
start_cluster ycsb3 3
# YCSB prints the 95th and 99th percentiles unless asked for more; the median is wanted too.
ycsb "$out/cluster-ycsb-load" load -p recordcount="$YCSB_RECORDS" -p hdrhistogram.percentiles=50,95,99 \
  -threads "$YCSB_THREADS"
ycsb "$out/cluster-ycsb-run" run -p recordcount="$YCSB_RECORDS" -p operationcount="$YCSB_OPERATIONS" \
  -p hdrhistogram.percentiles=50,95,99 -threads "$YCSB_THREADS"
stop_cluster

f="$out/cluster-ycsb-load.txt"
result cluster.ycsb.load workload workloada servers 3 threads "$YCSB_THREADS" records "$YCSB_RECORDS" \
  throughput "$(ycsb_value "$f" OVERALL 'Throughput(ops/sec)')" \
  insert_avg_us "$(ycsb_value "$f" INSERT 'AverageLatency(us)')" \
  insert_p50_us "$(ycsb_value "$f" INSERT '50thPercentileLatency(us)')" \
  insert_p95_us "$(ycsb_value "$f" INSERT '95thPercentileLatency(us)')" \
  insert_p99_us "$(ycsb_value "$f" INSERT '99thPercentileLatency(us)')"
f="$out/cluster-ycsb-run.txt"
result cluster.ycsb.run workload workloada servers 3 threads "$YCSB_THREADS" operations "$YCSB_OPERATIONS" \
  throughput "$(ycsb_value "$f" OVERALL 'Throughput(ops/sec)')" \
  read_avg_us "$(ycsb_value "$f" READ 'AverageLatency(us)')" \
  read_p50_us "$(ycsb_value "$f" READ '50thPercentileLatency(us)')" \
  read_p95_us "$(ycsb_value "$f" READ '95thPercentileLatency(us)')" \
  read_p99_us "$(ycsb_value "$f" READ '99thPercentileLatency(us)')" \
  update_avg_us "$(ycsb_value "$f" UPDATE 'AverageLatency(us)')" \
  update_p50_us "$(ycsb_value "$f" UPDATE '50thPercentileLatency(us)')" \
  update_p95_us "$(ycsb_value "$f" UPDATE '95thPercentileLatency(us)')" \
  update_p99_us "$(ycsb_value "$f" UPDATE '99thPercentileLatency(us)')"
fi

# ---- step 2: the network path against the engine, on one tablet server's HDFS -------------------
if [[ "$STEPS" == *" 2 "* ]]; then
echo
echo "=== step 2: $NET_THREADS writers of 1 KiB values, HFLUSH: storage engine vs YCSB over RPC to 1 tablet server"
start_cluster net1 1
engine_out="$out/cluster-engine-write.txt"
echo ">>> WriteThroughputBenchmark on the cluster's HDFS, output in $engine_out"
# The engine gets the heap a tablet server gets (bin/logbase-daemon.sh), so both hold the same
# read cache and index in the same room.
# shellcheck disable=SC2206
engine_argv=(java ${LOGBASE_DAEMON_OPTS:-$LB_DAEMON_OPTS_DEFAULT} ${JAVA_OPTS:-} -cp "$classpath" org.logbase.bench.engine.WriteThroughputBenchmark
  --fs-root "hdfs://localhost:$LOGBASE_NN_PORT/engine-bench" --hadoop-conf "$cluster_run/hadoop-conf"
  --writers "$NET_THREADS" --value-bytes 1024 --trials "$ENGINE_TRIALS" --profile true ${WRITE_ARGS:-})
log_cmd "${engine_argv[@]}"
if ! "${engine_argv[@]}" > "$engine_out" 2>&1; then
  tail -n 30 "$engine_out" >&2
  exit 1
fi
grep -E '^(engine|baseline|records per flush|ratio)' "$engine_out" || true

# The same table shape for every load: the fields are the columns of one column group, one tablet
# (the engine benchmark writes one tablet too), each record one 1 KiB value.
# shellcheck disable=SC2206
net_props=(-p fieldcount=1 -p fieldlength=1024 -p logbase.columngroup=f -p logbase.tablets=1
  -p logbase.durability=hflush ${NET_YCSB_ARGS:-})
# Not measured: the tablet server's first requests run interpreted code, the engine's are warmed up
# (it has a warm-up round). On 2 busy cores the JIT takes a while: a quarter of NET_RECORDS left the
# server still speeding up through the measured load, so the warm-up is a full load.
echo ">>> warm-up load (not counted)"
ycsb "$out/cluster-net-warmup" load "${net_props[@]}" -p table=warmup -p recordcount="$NET_RECORDS" \
  -threads "$NET_THREADS" > /dev/null
curve=" $NET_CURVE "
[[ "$curve" == *" $NET_THREADS "* ]] || curve+="$NET_THREADS "
for t in $curve; do
  f="$out/cluster-net-load-t$t"
  # Few threads write slowly: fewer records keep each load under a minute.
  records=$((25000 * t < NET_RECORDS ? 25000 * t : NET_RECORDS))
  ycsb_probed "$f" "${net_props[@]}" -p table="net_t$t" -p recordcount="$records" -threads "$t"
  p="$f-probe.txt"
  seconds="$(result_value "$p" seconds)"
  packets="$(result_value "$p" dn_packets)"
  result network.ycsb.load threads "$t" records "$records" \
    throughput "$(ycsb_value "$f.txt" OVERALL 'Throughput(ops/sec)')" \
    steady_throughput "$(ycsb_steady "$f.log")" \
    insert_avg_us "$(ycsb_value "$f.txt" INSERT 'AverageLatency(us)')" \
    insert_p95_us "$(ycsb_value "$f.txt" INSERT '95thPercentileLatency(us)')" \
    insert_p99_us "$(ycsb_value "$f.txt" INSERT '99thPercentileLatency(us)')" \
    records_per_flush "$(calc "$records / $packets")" \
    log_writer_waiting_for_work "$(result_value "$p" log_writer_waiting_for_work)" \
    tabletserver_cpu_us_per_record "$(calc "$(result_value "$p" cpu_tabletserver) * $seconds * 1e6 / $records")" \
    client_cpu_us_per_record "$(calc "$(result_value "$p" cpu_client) * $seconds * 1e6 / $records")" \
    machine_busy_cores "$(result_value "$p" machine_busy_cores)" \
    other_processes_cores "$(result_value "$p" other_cores)" \
    rows_per_request "$(result_value "$p" rows_per_request)" \
    server_until_appended_us "$(result_value "$p" server_until_appended_us)" \
    oracle_call_us "$(result_value "$p" oracle_call_us)" \
    server_until_durable_us "$(result_value "$p" server_until_durable_us)" \
    client_round_trip_us "$(result_value "$p" client_round_trip_us)"
  grep -E '^\[(OVERALL\], Throughput|INSERT\], (Average|95th|99th))' "$f.txt" || true
  tail -n 1 "$results"
  # Every load starts from the same server state: without this table's index (and heap).
  argv=(bin/logbase shell --zookeeper "$ZK" -e "drop net_t$t --yes")
  log_cmd "${argv[@]}"
  "${argv[@]}" > /dev/null
done
stop_cluster

net_value() { # KEY: its value on the network.ycsb.load line of NET_THREADS threads
  grep "^RESULT name=network.ycsb.load threads=$NET_THREADS " "$results" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"
}
engine="$(result_value "$engine_out" engine)"
ycsb_rate="$(net_value throughput)"
ycsb_steady_rate="$(net_value steady_throughput)"
ratio="$(calc "$ycsb_rate / $engine")"
ratio_steady=n/a
[[ "$ycsb_steady_rate" == n/a ]] || ratio_steady="$(calc "$ycsb_steady_rate / $engine")"
result network.path unit records/s threads "$NET_THREADS" value_bytes 1024 durability hflush \
  ycsb "$ycsb_rate" ycsb_steady "$ycsb_steady_rate" engine "$engine" ratio "$ratio" ratio_steady "$ratio_steady" \
  target 0.5 \
  verdict "$(awk -v r="$ratio" 'BEGIN { print (r >= 0.5 ? "meets_target" : "BELOW_target") }')" \
  ycsb_records_per_flush "$(net_value records_per_flush)" \
  engine_records_per_flush "$(result_value "$engine_out" records_per_flush)" \
  ycsb_log_writer_waiting_for_work "$(net_value log_writer_waiting_for_work)" \
  engine_log_writer_waiting_for_work "$(result_value "$engine_out" log_writer_waiting_for_work)" \
  ycsb_cpu_us_per_record "$(calc "$(net_value tabletserver_cpu_us_per_record) + $(net_value client_cpu_us_per_record)")" \
  engine_cpu_us_per_record "$(calc "$(result_value "$engine_out" engine_cpu_cores) * 1e6 / $engine")"
grep '^RESULT' "$engine_out" >> "$results"
fi
result cluster.bench seconds $((SECONDS - began))

echo
echo "=== results ($results) ==="
cat "$results"
