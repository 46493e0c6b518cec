#!/usr/bin/env bash
# Heap per row (issue #10): one storage engine on the local file system (a fresh directory under
# $TMPDIR, deleted at the end), 10 million rows of 16-byte keys and 8-byte values, retained heap
# with every row in the dense in-memory index and again after one compaction; bytes per row for
# both, their ratio, and the largest classes of the live heap after compaction.
# About 10 minutes on 2 cores; -Xmx3g (the dense index of 10 million rows alone takes about 400 MB,
# and loading makes garbage).
#
# Usage: bin/bench-heap.sh [outdir]            (default: target/bench)
# Writes <outdir>/heap.txt and <outdir>/heap-results.txt (the RESULT line).
#
# Environment:
#   HEAP_ARGS        extra --key value flags (--help lists them: --rows 10000000 --batch 1000 ...)
#   HEAP_MAX         the benchmark JVM's heap, -Xms and -Xmx (default 3g)
#   JAVA_OPTS        extra JVM flags
#   BENCH_MVN_FLAGS  Maven flags (default: -o, offline)
set -euo pipefail

source "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/logbase-heap-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
BENCH_HEAP="${HEAP_MAX:-3g}" bench_run heap org.logbase.bench.compaction.HeapPerRowBenchmark \
  --fs-root "file://$tmp" ${HEAP_ARGS:-}
