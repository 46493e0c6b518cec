#!/usr/bin/env bash
# Attack on moves, splits and failover (issue #11; docs/testing.md): real processes on a one-DataNode
# MiniDFSCluster, a recorded write load on 4 threads, and a stream of operator moves and splits while
# a nemesis kills (-9) or pauses (SIGSTOP past the session timeout) the active master, kills a move's
# source or target tablet server at a random moment, or starves a tablet server of CPU (cgroup; needs
# root). Afterwards: every acknowledged write reads back byte for byte, every tablet is served by
# exactly one server, no move or split intent is left pending, no move was made twice.
#
# Usage: bin/chaos-moves.sh [masters|servers|cpu|all] [seconds]     (default: all 240)
#   masters  moves and splits while the active master is killed or paused
#   servers  moves whose source or target is killed at random moments
#   cpu      moves and splits while one server is starved of CPU
# Environment: ATTACK_FLAGS, extra -D flags: -Dattack.seed=N (repeat a run), -Dattack.balancer=true
#   (masters: balancer on), -Dattack.cpu.percent=5, -Dattack.starve.min.ms / max.ms (cpu);
#   CHAOS_MVN_FLAGS, Maven flags (e.g. -o).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

which="${1:-all}"
seconds="${2:-240}"
case "$which" in
  masters) test='MoveChaosTest#movesAndSplitsWhileTheActiveMasterIsKilledOrPaused' ;;
  servers) test='MoveChaosTest#movesWhoseSourceOrTargetIsKilledAtRandomMoments' ;;
  cpu) test='MoveChaosTest#movesAndSplitsWhileOneServerIsStarvedOfCpu' ;;
  all) test='MoveChaosTest' ;;
  *) echo "usage: bin/chaos-moves.sh [masters|servers|cpu|all] [seconds]" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086
exec mvn -B -ntp ${CHAOS_MVN_FLAGS:-} -pl logbase-dist -am verify -Dtest="$test" \
  -Dsurefire.failIfNoSpecifiedTests=false -Dattack.seconds="$seconds" ${ATTACK_FLAGS:-}
