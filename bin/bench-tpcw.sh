#!/usr/bin/env bash
# Scale-out benchmark: TPC-W (each mix) and YCSB (load and workload A) against 1, 2 and 3 tablet
# servers, each tablet server process capped to the same CPU quota (Linux cgroup cpu.cfs_quota_us,
# v1, or cpu.max, v2), so that an added server adds capacity the way an added machine would. The
# clients, the master and ZooKeeper are not capped. Every cluster is a fresh set of processes
# (ZooKeeper, a master, N tablet servers: logbase-bench's ProcessCluster on logbase-chaos's
# ChaosCluster, logs on the local disk); the tables are pre-split into TABLETS tablets, which the
# master spreads evenly over the servers. Per cluster size:
#
#   1. bin/logbase tpcw load (servers not capped yet: the load is not measured)
#   2. the cap is set: TPC-W runs each mix for WARMUP + DURATION seconds with BROWSERS_PER_SERVER x N
#      emulated browsers and no think time (the paper's method: client threads grow with the servers)
#   3. YCSB load (YCSB_RECORDS records) and workload A (YCSB_SECONDS), YCSB_THREADS_PER_SERVER x N threads
#   4. the cap is removed, the cluster stopped
#
# Recorded per run: CPU seconds and GC seconds of every cluster process (/proc, jstat) and the
# tablet servers' throttled periods (cgroup cpu.stat) in cpu.csv; the load average before and after,
# and the cores the whole machine, the cluster, the driver and everything else (other users of the
# machine: a run they disturbed shows it here) kept busy, in runs.csv. Then the charts are drawn
# (XChart, PNG) and the tables printed (also <outdir>/table.md). Needs root (the cgroup) and Linux.
# About 30 minutes with the defaults.
#
# Usage: bin/bench-tpcw.sh [outdir]              (default: target/bench/tpcw)
# Writes <outdir>/tpcw.csv (one row per mix, size and interaction), ycsb.csv, cpu.csv, runs.csv,
# commands.txt (every command, as run), the outputs of each command, and the charts <outdir>/*.png.
# To run a disturbed point again: APPEND=1 SERVERS=3 MIXES=shopping YCSB=0 bin/bench-tpcw.sh <outdir>
# (a fresh cluster, loaded again; its rows are appended, and the charts and tables take the last row
# of each mix and size).
#
# Environment:
#   SERVERS ("1 2 3")        cluster sizes
#   CPU_PERCENT (15)         quota of each tablet server, percent of one core (docs/benchmarks.md: why 15)
#   CPU_PERIOD_US (20000)    the quota's period (short, so that a throttled server waits milliseconds, not 100)
#   CPU_WEIGHT (8)           each capped group's scheduler weight, in tasks' weights (below: why)
#   MIXES ("browsing shopping ordering paper-browsing paper-shopping paper-ordering")
#   ITEMS (10000), EBS (10)  TPC-W scale: items and the browsers the database is sized for
#   BROWSERS_PER_SERVER (8)  emulated browsers per tablet server
#   DURATION (45), WARMUP (10)   seconds per mix
#   TABLETS (6)              tablets per table (divisible by 1, 2 and 3)
#   YCSB_RECORDS (30000), YCSB_SECONDS (60), YCSB_THREADS_PER_SERVER (8); YCSB=0 skips YCSB
#   CHARTS (outdir)          where the PNG charts go (docs/images to refresh the docs' charts)
#   TPCW_FLAGS ("")          more flags for every bin/logbase tpcw run (e.g. "--id-block 100")
#   APPEND (0)               1: keep the outdir's CSV files and add to them
#   BENCH_MVN_FLAGS          Maven flags (default: -o, offline)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"
SERVERS="${SERVERS:-1 2 3}"
CPU_PERCENT="${CPU_PERCENT:-15}"
CPU_PERIOD_US="${CPU_PERIOD_US:-20000}"
MIXES="${MIXES:-browsing shopping ordering paper-browsing paper-shopping paper-ordering}"
ITEMS="${ITEMS:-10000}"
EBS="${EBS:-10}"
BROWSERS_PER_SERVER="${BROWSERS_PER_SERVER:-8}"
DURATION="${DURATION:-45}"
WARMUP="${WARMUP:-10}"
TABLETS="${TABLETS:-6}"
YCSB="${YCSB:-1}"
TPCW_FLAGS="${TPCW_FLAGS:-}"
YCSB_RECORDS="${YCSB_RECORDS:-30000}"
YCSB_SECONDS="${YCSB_SECONDS:-60}"
YCSB_THREADS_PER_SERVER="${YCSB_THREADS_PER_SERVER:-8}"

bench_init "${1:-target/bench/tpcw}"
out="$(cd "$out" && pwd)"
CHARTS="${CHARTS:-$out}"
if [[ "${APPEND:-0}" == 0 ]]; then
  rm -f "$out"/tpcw.csv "$out"/ycsb.csv "$out"/cpu.csv "$out"/runs.csv "$out"/*.txt
fi
bin/logbase classpath > /dev/null # builds what bin/logbase runs, once, before anything is timed
commands="$out/commands.txt"
echo "# $(date -u '+%F %T') SERVERS='$SERVERS' MIXES='$MIXES' CPU_PERCENT=$CPU_PERCENT DURATION=$DURATION" \
  "WARMUP=$WARMUP YCSB=$YCSB TPCW_FLAGS='$TPCW_FLAGS'" >> "$commands"
header() { # FILE LINE: the header line of a new CSV file
  [[ -s "$1" ]] || echo "$2" > "$1"
}
header "$out/cpu.csv" "servers,run,process,cpu_s,wall_s,cores,throttled_periods,periods,gc_s"
header "$out/runs.csv" "servers,run,wall_s,loadavg_start,loadavg_end,machine_cores,cluster_cores,driver_cores,other_cores"
header "$out/ycsb.csv" "servers,phase,operation,throughput,avg_ms,p99_ms"

# ---- cgroup cpu quota -----------------------------------------------------------------------------
if [[ -w /sys/fs/cgroup/cpu/cgroup.procs && -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]]; then
  CG_ROOT=/sys/fs/cgroup/cpu CG_V2=0
elif [[ -w /sys/fs/cgroup/cgroup.procs ]] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2> /dev/null; then
  CG_ROOT=/sys/fs/cgroup CG_V2=1
else
  echo "bench-tpcw: needs a writable cgroup cpu controller (root on Linux) to cap the tablet servers" >&2
  exit 1
fi
capped=()

# A group's weight: the scheduler weighs a group as one task, however many threads the server runs
# in it, so under a default weight a capped server would also fall behind every runnable thread of
# the machine's other users (2 cores, shared) and get less than its quota. CPU_WEIGHT times a
# task's weight keeps the cap an upper bound and not also a demotion; the quota still bounds it.
CPU_WEIGHT="${CPU_WEIGHT:-8}"

cap() { # PID: moves a process into a group of its own with the quota
  local g="$CG_ROOT/logbase-bench-$1" quota=$((CPU_PERIOD_US * CPU_PERCENT / 100))
  mkdir -p "$g"
  if [[ $CG_V2 == 1 ]]; then
    echo +cpu > "$CG_ROOT/cgroup.subtree_control"
    echo "$quota $CPU_PERIOD_US" > "$g/cpu.max"
    echo $((100 * CPU_WEIGHT)) > "$g/cpu.weight"
  else
    echo "$CPU_PERIOD_US" > "$g/cpu.cfs_period_us"
    echo "$quota" > "$g/cpu.cfs_quota_us"
    echo $((1024 * CPU_WEIGHT)) > "$g/cpu.shares"
  fi
  echo "$1" > "$g/cgroup.procs"
  capped+=("$1")
  echo "capped: pid $1 at $CPU_PERCENT% of a core ($quota us per $CPU_PERIOD_US us, weight x$CPU_WEIGHT, $g)" \
    | tee -a "$commands"
}

uncap_all() { # moves the processes back and removes the groups
  local pid g id
  for pid in "${capped[@]+"${capped[@]}"}"; do
    g="$CG_ROOT/logbase-bench-$pid"
    [[ -d "$g" ]] || continue
    while read -r id; do echo "$id" > "$CG_ROOT/cgroup.procs" 2> /dev/null || true; done < "$g/cgroup.procs"
    for _ in 1 2 3 4 5 6 7 8 9 10; do # a thread that is exiting may keep the group busy a moment
      rmdir "$g" 2> /dev/null && break
      sleep 0.5
    done
    if [[ -d "$g" ]]; then
      echo "bench-tpcw: $g not removed (a process in it is exiting); rmdir it later" >&2
    fi
  done
  capped=()
}

gc_seconds() { # PID: seconds the JVM spent in garbage collection so far (jstat), 0 where jstat is missing
  jstat -gcutil "$1" 2> /dev/null | awk 'NR == 2 { print $NF + 0 }' || echo 0
}

throttled() { # PID: "throttled periods" of its group
  local f="$CG_ROOT/logbase-bench-$1/cpu.stat"
  [[ -f "$f" ]] && awk '$1 == "nr_throttled" { t = $2 } $1 == "nr_periods" { p = $2 } END { print t + 0, p + 0 }' "$f" \
    || echo "0 0"
}

# ---- the cluster --------------------------------------------------------------------------------
cluster_pid=""
stop_cluster() {
  uncap_all
  if [[ -n "$cluster_pid" ]]; then
    kill -TERM "$cluster_pid" 2> /dev/null || true
    wait "$cluster_pid" 2> /dev/null || true
    cluster_pid=""
  fi
}
trap stop_cluster EXIT

declare -A pids
start_cluster() { # N
  local dir="$out/cluster-$1" f
  rm -rf "$dir"
  mkdir -p "$dir"
  f="$dir/process-cluster.out"
  echo "java -cp \$classpath org.logbase.bench.scaleout.ProcessCluster --dir $dir --servers $1" >> "$commands"
  : > "$f"
  java -Xmx256m -cp "$classpath" org.logbase.bench.scaleout.ProcessCluster --dir "$dir" --servers "$1" \
    > "$f" 2> "$dir/process-cluster.log" &
  cluster_pid=$!
  until grep -q '^CLUSTER READY' "$f"; do
    kill -0 "$cluster_pid" 2> /dev/null || { echo "bench-tpcw: the cluster did not start:" >&2; tail "$dir/process-cluster.log" >&2; exit 1; }
    sleep 1
  done
  ZK="$(sed -n 's/^CLUSTER READY zookeeper=//p' "$f")"
  pids=()
  while read -r _ name pid; do pids[$name]=$pid; done < <(grep '^PROCESS ' "$f")
  echo "cluster of $1 tablet servers: zookeeper $ZK, processes ${!pids[*]}"
}

ticks() { # PID: CPU ticks (user + system) so far
  awk '{ print $14 + $15 }' "/proc/$1/stat" 2> /dev/null || echo 0
}

machine_busy() { # CPU ticks the whole machine spent busy so far (all cores: /proc/stat less idle and iowait)
  awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# CPU ticks of this shell's finished children (the driver's JVM among them) from bash's times, which
# must run in this shell (in a pipe or $(...) it would run in a subshell, which has no children yet):
#   times > "$out/.times"; t=$(children_ticks)
children_ticks() {
  awk -v hz="$(getconf CLK_TCK)" 'NR == 2 {
    split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d\n", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * hz }' "$out/.times"
}

# Runs a command (its output to FILE) and records the CPU each cluster process used meanwhile
# (cpu.csv), and how busy the machine was (runs.csv: load average, all CPU, the cluster's, the
# command's own (the driver), and the rest: other users of the machine, which disturb the run).
measured() { # N RUN FILE COMMAND...
  local n="$1" run="$2" file="$3" name start t0 rc=0 hz busy0 kids0 cluster=0 c w load0
  hz="$(getconf CLK_TCK)"
  shift 3
  printf '%q ' "$@" >> "$commands"
  echo >> "$commands"
  declare -A before throttle gc
  for name in "${!pids[@]}"; do
    before[$name]=$(ticks "${pids[$name]}")
    throttle[$name]="$(throttled "${pids[$name]}")"
    gc[$name]=$(gc_seconds "${pids[$name]}")
  done
  load0="$(cut -d' ' -f1 /proc/loadavg)"
  busy0=$(machine_busy)
  times > "$out/.times"
  kids0=$(children_ticks)
  start=$(date +%s.%N)
  "$@" > "$file" 2>&1 || rc=$?
  t0=$(date +%s.%N)
  times > "$out/.times"
  w="$(awk -v a="$start" -v b="$t0" 'BEGIN { print b - a }')"
  for name in "${!pids[@]}"; do
    read -r tn pn <<< "$(throttled "${pids[$name]}")"
    read -r tb pb <<< "${throttle[$name]}"
    c=$(( $(ticks "${pids[$name]}") - ${before[$name]} ))
    cluster=$((cluster + c))
    awk -v n="$n" -v r="$run" -v p="$name" -v c="$c" -v hz="$hz" -v w="$w" -v t=$((tn - tb)) -v ps=$((pn - pb)) \
      -v g0="${gc[$name]}" -v g1="$(gc_seconds "${pids[$name]}")" \
      'BEGIN { printf "%s,%s,%s,%.1f,%.1f,%.2f,%d,%d,%.1f\n", n, r, p, c / hz, w, c / hz / w, t, ps, g1 - g0 }' >> "$out/cpu.csv"
  done
  awk -v n="$n" -v r="$run" -v w="$w" -v hz="$hz" -v l0="$load0" -v l1="$(cut -d' ' -f1 /proc/loadavg)" \
    -v m=$(( $(machine_busy) - busy0 )) -v c="$cluster" -v d=$(( $(children_ticks) - kids0 )) \
    'BEGIN { printf "%s,%s,%.1f,%s,%s,%.2f,%.2f,%.2f,%.2f\n", n, r, w, l0, l1, m / hz / w, c / hz / w, d / hz / w,
             (m - c - d) / hz / w }' >> "$out/runs.csv"
  tail -n 1 "$out/runs.csv" | awk -F, '{ printf "    (%.0f s; load average %s to %s; cores busy: %s, cluster %s, driver %s, others %s)\n", $3, $4, $5, $6, $7, $8, $9 }'
  return $rc
}

ycsb_csv() { # N PHASE FILE: YCSB's summary lines as CSV rows
  awk -F', ' -v n="$1" -v ph="$2" '
    $2 == "Throughput(ops/sec)" { tp = $3 }
    $2 == "AverageLatency(us)" { op = substr($1, 2, length($1) - 2); avg[op] = $3 / 1000 }
    $2 == "99thPercentileLatency(us)" { op = substr($1, 2, length($1) - 2); p99[op] = $3 / 1000 }
    END { printf "%s,%s,OVERALL,%.1f,,\n", n, ph, tp
          for (op in avg) if (op != "OVERALL" && op !~ /CLEANUP|FAILED/) printf "%s,%s,%s,,%.2f,%.2f\n", n, ph, op, avg[op], p99[op] }' \
    "$3" >> "$out/ycsb.csv"
}

began=$SECONDS
for n in $SERVERS; do
  echo
  echo "=== $n tablet server(s), each capped at $CPU_PERCENT% of a core"
  start_cluster "$n"
  echo "--- TPC-W load ($ITEMS items, $EBS browsers' customers), not capped"
  measured "$n" load "$out/tpcw-load-$n.txt" bin/logbase tpcw load --zookeeper "$ZK" --items "$ITEMS" \
    --browsers "$EBS" --tablets "$TABLETS" --threads 4
  tail -n 1 "$out/tpcw-load-$n.txt"
  for name in "${!pids[@]}"; do
    [[ "$name" == ts* ]] && cap "${pids[$name]}"
  done
  browsers=$((BROWSERS_PER_SERVER * n))
  for mix in $MIXES; do
    echo "--- TPC-W $mix, $browsers browsers, ${WARMUP}s + ${DURATION}s"
    # shellcheck disable=SC2086 # TPCW_FLAGS: words
    measured "$n" "$mix" "$out/tpcw-$mix-$n.txt" bin/logbase tpcw run --zookeeper "$ZK" --mix "$mix" \
      --browsers "$browsers" --duration "$DURATION" --warmup "$WARMUP" --csv "$out/tpcw.csv" --label "$n" $TPCW_FLAGS \
      || echo "bench-tpcw: $mix reported failed interactions (see $out/tpcw-$mix-$n.txt)"
    grep '^\[OVERALL\]' "$out/tpcw-$mix-$n.txt" || tail -n 5 "$out/tpcw-$mix-$n.txt"
  done
  measured "$n" audit "$out/tpcw-audit-$n.txt" bin/logbase tpcw audit --zookeeper "$ZK" \
    || echo "bench-tpcw: THE AUDIT FAILED (see $out/tpcw-audit-$n.txt)"
  tail -n 1 "$out/tpcw-audit-$n.txt"
  if [[ "$YCSB" != 0 ]]; then
    threads=$((YCSB_THREADS_PER_SERVER * n))
    ycsb=(bin/logbase ycsb load -P logbase-ycsb/workloads/workloada -p "logbase.zookeeper=$ZK"
      -p "recordcount=$YCSB_RECORDS" -p "logbase.tablets=$TABLETS" -threads "$threads" -s)
    echo "--- YCSB load, $YCSB_RECORDS records, $threads threads"
    measured "$n" ycsb-load "$out/ycsb-load-$n.txt" "${ycsb[@]}" || echo "bench-tpcw: YCSB load reported failures"
    ycsb_csv "$n" load "$out/ycsb-load-$n.txt"
    ycsb[2]=run
    echo "--- YCSB workload A, ${YCSB_SECONDS}s, $threads threads"
    measured "$n" ycsb-run "$out/ycsb-run-$n.txt" "${ycsb[@]}" -p operationcount=100000000 \
      -p "maxexecutiontime=$YCSB_SECONDS" || echo "bench-tpcw: YCSB run reported failures"
    ycsb_csv "$n" run "$out/ycsb-run-$n.txt"
  fi
  stop_cluster
done

echo
echo "=== charts and table ($(( (SECONDS - began) / 60 )) minutes so far)"
java -Djava.awt.headless=true -cp "$classpath" org.logbase.bench.scaleout.ScaleOutCharts "$out/tpcw.csv" \
  "$out/ycsb.csv" "$CHARTS" | tee "$out/table.txt"
echo "per-process CPU of every run: $out/cpu.csv; commands: $commands"
