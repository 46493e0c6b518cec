#!/usr/bin/env bash
# Timestamp oracle benchmark: timestamps/s through the batching TimestampClient against one
# GetTimestamps request per timestamp, with 1, 4 and 16 client threads, in the same run; an
# in-process ZooKeeper (Curator TestingServer), one master and one client over loopback gRPC.
#
# Usage: bin/bench-oracle.sh [outdir]            (default: target/bench)
# Writes <outdir>/oracle.txt and <outdir>/oracle-results.txt (the RESULT lines).
#
# Environment:
#   ORACLE_ARGS      extra --key value flags (--threads 1,4,16 --seconds 3 --warmup-seconds 2 --trials 3)
#   JAVA_OPTS        extra JVM flags
#   BENCH_MVN_FLAGS  Maven flags (default: -o, offline)
set -euo pipefail

cd "$(dirname "$0")/.."
out="${1:-target/bench}"
mkdir -p "$out"

# One reactor build of the bench module and what it needs, with its classpath written out; nothing
# goes to ~/.m2, so this works from a fresh clone.
echo "building logbase-bench..."
# shellcheck disable=SC2086
mvn -q -B ${BENCH_MVN_FLAGS--o} -DskipTests -pl logbase-bench -am \
  package dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
classpath="logbase-bench/target/classes:$(cat logbase-bench/target/classpath.txt)"

echo
echo ">>> OracleBenchmark ${ORACLE_ARGS:-}, output in $out/oracle.txt"
# shellcheck disable=SC2086
java -Xmx1g ${JAVA_OPTS:-} -cp "$classpath" org.logbase.bench.oracle.OracleBenchmark ${ORACLE_ARGS:-} \
  2>&1 | tee "$out/oracle.txt"

echo
echo "=== results ($out/oracle-results.txt) ==="
grep -h '^RESULT' "$out/oracle.txt" | tee "$out/oracle-results.txt"
