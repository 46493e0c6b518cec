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

source "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
# shellcheck disable=SC2086
bench_run oracle org.logbase.bench.oracle.OracleBenchmark ${ORACLE_ARGS:-}
