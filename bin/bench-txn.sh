#!/usr/bin/env bash
# Transaction benchmark: one-row transactions against autocommit puts, two-phase commit over two
# tablet servers against two rows on one, and read-modify-write transactions on Zipfian-chosen rows
# with the owner-local and the ZooKeeper lock manager (abort rates), all in one run of TxnBenchmark:
# ZooKeeper, a master and 3 tablet servers in one JVM, logs on the local file system, a client over
# loopback gRPC (a second such cluster for the ZooKeeper lock manager). About 7 minutes.
#
# Usage: bin/bench-txn.sh [outdir]               (default: target/bench)
# Writes <outdir>/txn.txt and <outdir>/txn-results.txt (the RESULT lines).
#
# Environment:
#   TXN_ARGS         extra --key value flags, after the script's own (--seconds 5 --warmup-seconds 2
#                    --jit-seconds 5 --trials 3 --profile true); others: --threads 1,4,16
#                    --twophase-threads 1,4,16 --contention-threads 8,16 --value-bytes 1024
#                    --keys 1000 --zipf-constant 0.99 --lock-managers local,zookeeper
#                    --phases commit,twophase,contention --fs-root hdfs://...; --help lists them
#   JAVA_OPTS        extra JVM flags
#   BENCH_MVN_FLAGS  Maven flags (default: -o, offline)
set -euo pipefail

source "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
# shellcheck disable=SC2086
bench_run txn org.logbase.bench.txn.TxnBenchmark --seconds 5 --warmup-seconds 2 --jit-seconds 5 --trials 3 \
  --profile true ${TXN_ARGS:-}
