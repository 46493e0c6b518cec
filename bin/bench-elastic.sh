#!/usr/bin/env bash
# Failover, moves and rebalancing (issue #11): a cluster of processes (ZooKeeper, a master, 4 tablet
# servers) with its logs on an in-process MiniDFSCluster. Fills ts1's tablets until its log holds
# about 1 GB (checkpoints every 20,000 updates of an index), kills ts1 with kill -9 and measures until every one
# of its tablets answers at its new server; moves 6 tablets one at a time and measures each one's time
# without writes and the log segments created meanwhile; runs a workload like YCSB's A (half reads,
# half updates) for 20 s on the balanced cluster and then while the balancer moves tablets to a fourth
# server, and divides the two throughputs. Results in docs/benchmarks.md ("Failover and moves").
# About 5 minutes with the defaults, mostly the load; needs about 1.5 GB of free disk under TMPDIR.
#
# Usage: bin/bench-elastic.sh [outdir]           (default: target/bench)
#
# Environment:
#   ELASTIC_ARGS     extra --key value flags: --log-mb 1024 --value-bytes 1024 --tablets 24
#                    --load-threads 16 --checkpoint-updates 20000 --moves 6 --threads 8 --seconds 20
#                    --session-ms 6000 --tmp DIR; --help lists them
#   JAVA_OPTS        extra JVM flags
#   BENCH_MVN_FLAGS  Maven flags (default: -o, offline)
set -euo pipefail

source "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
# shellcheck disable=SC2086
bench_run elastic org.logbase.bench.elastic.ElasticityBenchmark ${ELASTIC_ARGS:-}
