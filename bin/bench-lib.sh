#!/usr/bin/env bash
# Shared by bin/bench-oracle.sh and bin/bench-txn.sh (sourced).
LOGBASE_HOME="${LOGBASE_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
# shellcheck source=bin/lib.sh
source "$LOGBASE_HOME/bin/lib.sh"

# bench_init [OUTDIR]: goes to the repository's root, creates $out (default: target/bench) and builds.
bench_init() {
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  out="${1:-target/bench}"
  mkdir -p "$out"
  bench_build
}

# One reactor build of logbase-bench and what it needs, with its classpath written out; nothing
# goes to ~/.m2, so this works from a fresh clone. Sets $classpath.
bench_build() {
  echo "building logbase-bench..."
  # shellcheck disable=SC2086
  mvn -q -B ${BENCH_MVN_FLAGS--o} -DskipTests -pl logbase-bench -am \
    package dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
  classpath="logbase-bench/target/classes:$(cat logbase-bench/target/classpath.txt)"
}

# bench_run NAME CLASS [FLAG...]: runs a benchmark program (a fixed heap, $BENCH_HEAP or 1g, and $JAVA_OPTS), its
# output to $out/NAME.txt and its RESULT lines to $out/NAME-results.txt. The heap is fixed (-Xms as
# -Xmx), as a server's would be: the programs call System.gc() between trials, after which a
# growable heap shrinks, and the side that allocates then pays for faulting its pages in again. It
# is on transparent huge pages, as a daemon's is (LB_HUGE_PAGES in bin/lib.sh).
bench_run() {
  local name=$1 class=$2
  shift 2
  echo
  echo ">>> ${class##*.} $*, output in $out/$name.txt"
  # shellcheck disable=SC2086
  java "-Xms${BENCH_HEAP:-1g}" "-Xmx${BENCH_HEAP:-1g}" $LB_HUGE_PAGES ${JAVA_OPTS:-} -cp "$classpath" "$class" "$@" 2>&1 | tee "$out/$name.txt"
  echo
  echo "=== results ($out/$name-results.txt) ==="
  grep -h '^RESULT' "$out/$name.txt" | tee "$out/$name-results.txt"
}
