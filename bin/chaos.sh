#!/usr/bin/env bash
# Fault-injection run (docs/testing.md): a cluster of processes (ZooKeeper, 2 masters, 3 tablet
# servers, a client process) under list-append, bank-transfer and single-row-write load while a
# nemesis kills, pauses, starves and restarts processes; afterwards the whole history is checked
# (snapshot-isolation anomalies, bank totals in every snapshot, every acknowledged write).
#
# Usage: bin/chaos.sh [chaos flags]     e.g.  bin/chaos.sh --duration 1800 --min-server-kills 100
#        bin/chaos.sh --help            lists the flags (duration, faults, threads, settings, ...)
#
# On HDFS (a NameNode and a DataNode of the run's own, killed and paused by the nemesis too):
#        bin/chaos.sh --hdfs --faults all --duration 240
# The soak that docs/testing.md reports:
#        bin/chaos.sh --duration 1800 --min-server-kills 100 --min-transactions 100000
# Exit status: 0 no anomalies; 1 anomalies (listed at the end); 3 fewer kills or transactions than
# the --min flags ask for. Process logs, the history and the nemesis's log stay in the run directory
# (--dir, default target/chaos/<time>).
#
# Environment: CHAOS_MVN_FLAGS (Maven flags for the build, default: none), JAVA_OPTS (the runner's JVM).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "building logbase-chaos..." >&2
# shellcheck disable=SC2086
mvn -q -B -ntp ${CHAOS_MVN_FLAGS:-} -DskipTests -pl logbase-chaos -am package >&2
cp="$(ls logbase-chaos/target/logbase-chaos-*.jar | grep -v -- '-tests.jar' | head -n 1)"
for m in common tabletserver master client ycsb dist; do
  cp="$cp:$(ls logbase-$m/target/logbase-$m-*.jar | grep -v -- '-tests.jar' | head -n 1)"
done
cp="$cp:$(cat logbase-chaos/target/runtime-classpath.txt)"
# shellcheck disable=SC2086
exec java -Xmx1g ${JAVA_OPTS:-} -Dlog4j.configuration=chaos-runner-log4j.properties -cp "$cp" \
  org.logbase.chaos.Chaos "$@"
