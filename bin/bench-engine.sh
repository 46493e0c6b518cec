#!/usr/bin/env bash
# Storage-engine benchmarks: durable write throughput, uncached random gets and recovery time, each
# against its raw-HDFS baseline in the same run, on an in-process one-DataNode MiniDFSCluster.
#
# Usage: bin/bench-engine.sh [outdir]            (default: target/bench)
# Writes <outdir>/engine-{write,get,recovery}.txt and <outdir>/engine-results.txt (the RESULT lines).
#
# Environment:
#   WRITE_ARGS, GET_ARGS, RECOVERY_ARGS  extra --key value flags per program (--help lists them)
#   JAVA_OPTS                            extra JVM flags for every program
#   BENCH_MVN_FLAGS                      Maven flags (default: -o, offline)
set -euo pipefail

cd "$(dirname "$0")/.."
LOGBASE_HOME="$(pwd)"
# shellcheck source=bin/lib.sh
source "$LOGBASE_HOME/bin/lib.sh"
out="${1:-target/bench}"
mkdir -p "$out"

# Build the bench module and what it needs in one reactor (the tablet server's test-jar included,
# which is why -am and package rather than a lone module), and write its classpath. Nothing goes to
# ~/.m2, so this works from a fresh clone.
echo "building logbase-bench..."
# shellcheck disable=SC2086
mvn -q -B ${BENCH_MVN_FLAGS--o} -DskipTests -pl logbase-bench -am \
  package dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
classpath="logbase-bench/target/classes:$(cat logbase-bench/target/classpath.txt)"

failed=()
run() {
  local name=$1 class=$2 heap=$3
  shift 3
  echo
  echo ">>> $class $* (-Xmx$heap), output in $out/$name.txt"
  # shellcheck disable=SC2086
  if ! java "-Xmx$heap" $LB_HUGE_PAGES ${JAVA_OPTS:-} -cp "$classpath" "org.logbase.bench.engine.$class" "$@" 2>&1 | tee "$out/$name.txt"; then
    failed+=("$class")
  fi
}

# shellcheck disable=SC2086
run engine-write WriteThroughputBenchmark 2g ${WRITE_ARGS:-}
# shellcheck disable=SC2086
run engine-get RandomGetBenchmark 2g ${GET_ARGS:-}
# shellcheck disable=SC2086
run engine-recovery RecoveryBenchmark 3g ${RECOVERY_ARGS:-}

echo
echo "=== results ($out/engine-results.txt) ==="
grep -h '^RESULT' "$out/engine-write.txt" "$out/engine-get.txt" "$out/engine-recovery.txt" \
  | tee "$out/engine-results.txt" || true
if ((${#failed[@]})); then
  echo "FAILED: ${failed[*]}" >&2
  exit 1
fi
