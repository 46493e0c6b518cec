#!/usr/bin/env bash
# Index benchmarks: B-link tree vs ConcurrentSkipListMap.
#   bin/bench-index.sh [output-dir]        (default target/bench)
# Writes index-jmh.txt/.json (lookups/s, inserts/s with 1 and 2 threads, 1M-entry load time)
# and index-heap.txt (retained heap bytes per entry for 10M entries).
# Environment: MVN_FLAGS (e.g. -o), JMH_ARGS (extra JMH options, e.g. "-wi 1 -i 1" for a smoke
# run), FOOTPRINT_ENTRIES (default 10000000), FOOTPRINT_HEAP (default 6g).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-target/bench}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# One reactor build that packages and prints the classpath: within the same build Maven resolves
# the sibling modules to their freshly built jars, so nothing has to be installed in ~/.m2.
# (The classpath file is written per module; logbase-bench comes last and wins.)
mvn -q -B ${MVN_FLAGS:-} -DskipTests -pl logbase-bench -am package \
  dependency:build-classpath -Dmdep.outputFile="$out/classpath.txt"

# Run from copies of this repository's jars, so that a rebuild while the benchmarks run (they
# take several minutes) cannot pull classes from under the benchmark JVMs.
lib="$out/lib"
rm -rf "$lib"
mkdir -p "$lib"
cp logbase-bench/target/logbase-bench-*.jar "$lib/"
cp="$(ls "$lib"/logbase-bench-*.jar)"
IFS=: read -r -a entries <<< "$(cat "$out/classpath.txt")" # the file has no final newline
for entry in "${entries[@]}"; do
  if [[ "$entry" == "$PWD"/* ]]; then
    cp "$entry" "$lib/"
    entry="$lib/$(basename "$entry")"
  fi
  cp="$cp:$entry"
done

echo "== JMH IndexBenchmark -> $out/index-jmh.txt"
# shellcheck disable=SC2086 # JMH_ARGS is a list of options
java -cp "$cp" org.openjdk.jmh.Main IndexBenchmark \
  -rf json -rff "$out/index-jmh.json" ${JMH_ARGS:-} | tee "$out/index-jmh.txt"

echo "== IndexHeapFootprint -> $out/index-heap.txt"
java -Xms"${FOOTPRINT_HEAP:-6g}" -Xmx"${FOOTPRINT_HEAP:-6g}" -cp "$cp" \
  org.logbase.bench.index.IndexHeapFootprint "${FOOTPRINT_ENTRIES:-10000000}" | tee "$out/index-heap.txt"
