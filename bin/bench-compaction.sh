#!/usr/bin/env bash
# Compaction benchmark (issue #10): one storage engine on an in-process one-DataNode MiniDFSCluster,
# 1 KiB values; range scans after compaction against before, a full scan against a raw sequential
# read of the same segment bytes, log and segment bytes against the live data (and the compression
# ratio of generated prose with LZ4 and Zstd), writes and get latency while a compaction runs against
# none, uncached gets of compacted rows against raw block reads, each ratio measured in the same run.
# About 5 minutes on 2 cores with the defaults; the issue's sizes: COMPACTION_ARGS="--rows 200000".
#
# Usage: bin/bench-compaction.sh [outdir]            (default: target/bench)
# Writes <outdir>/compaction.txt and <outdir>/compaction-results.txt (the RESULT lines).
#
# Environment:
#   COMPACTION_ARGS  extra --key value flags (--help lists them: --rows 40000 --versions 5 ...)
#   JAVA_OPTS        extra JVM flags
#   BENCH_HEAP       the heap (default here 2g: see below)
#   BENCH_MVN_FLAGS  Maven flags (default: -o, offline)
#
# The heap is 2g, not bench-lib's 1g. The write windows of part 4 put about 350,000 versions a
# window into a tablet this program never compacts; at 200,000 rows that index and the compaction's
# chunk fill a 1g heap past G1's threshold for concurrent cycles, and the collector, not the
# compaction, then sets how fast the writers go in the later windows (docs/benchmarks.md,
# "Compaction", stop 38: 0.77 at 1g, 0.89 at 2g in runs that differed only in the heap).
set -euo pipefail

: "${BENCH_HEAP:=2g}"
source "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
# shellcheck disable=SC2086
bench_run compaction org.logbase.bench.compaction.CompactionBenchmark ${COMPACTION_ARGS:-}
