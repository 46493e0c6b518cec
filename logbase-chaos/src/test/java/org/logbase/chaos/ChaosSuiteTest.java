package org.logbase.chaos;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.chaos.nemesis.Fault;

/**
 * The fault-injection suite in CI: three minutes of every fault against the real processes, whose
 * servers compact, checkpoint and collect log garbage every few seconds, with the logs on HDFS
 * daemons of the run's own (killed and paused too), then the whole history checked (bin/chaos.sh runs the same for as long as asked). And the proof that
 * the checks can fail: the same workloads against deliberately broken servers (validation off,
 * snapshot reads that do not wait for committing writers) must be caught.
 */
class ChaosSuiteTest {
  /** Kept when a test fails: the run's process logs, history and nemesis log are the evidence. */
  @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir;
  final PrintStream out = System.out;

  @Test
  void threeMinutesOfEveryFaultLeaveNoAnomaly() throws Exception {
    // The DataNode's death and pause first: drawn at random among 18 faults, a run may miss them.
    Chaos.RunResult r = Chaos.withArgs(out, "--dir", dir.toString(), "--duration", "180", "--faults", "all",
        "--hdfs", "--first-faults", "kill-datanode,pause-datanode").run();
    assertTrue(r.problems().isEmpty(), "anomalies: " + r.problems() + " (run directory kept: " + dir + ")");
    assertTrue(r.faults().containsKey(Fault.KILL_DATANODE) && r.faults().containsKey(Fault.PAUSE_DATANODE),
        "the DataNode was killed and paused: " + r.faults());
    assertTrue(r.serverKills() >= 5, "the nemesis killed servers: " + r.faults());
    assertTrue(r.faults().keySet().stream().filter(f -> !f.killsServer()).count() >= 2,
        "other faults were injected too: " + r.faults());
    assertTrue(r.committed() > 300, "transactions committed: " + r.committed());
    assertTrue(serverLogLines("TabletCompactor: compacted tablet") > 0, "the servers compacted tablets");
  }

  /** Lines of the tablet servers' logs of the run that contain {@code text}. */
  private long serverLogLines(String text) throws IOException {
    long n = 0;
    try (Stream<Path> logs = Files.list(dir.resolve("logs"))) {
      for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("ts")).toList()) {
        try (Stream<String> lines = Files.lines(log)) {
          n += lines.filter(l -> l.contains(text)).count();
        }
      }
    }
    return n;
  }

  @Test
  void lostUpdatesOfServersWithoutValidationAreCaught() throws Exception {
    Chaos.RunResult r = Chaos.withArgs(out, "--dir", dir.toString(), "--duration", "30", "--faults", "none",
        "--slow-scan-rows", "0", "--client-processes", "0", "--broken", "validation").run();
    assertFalse(r.valid(), "the checks catch what first-committer-wins prevents");
    assertTrue(r.problems().stream().anyMatch(p -> p.startsWith("bank ledger")),
        "the bank ledger names the commits of lost updates: " + r.problems());
  }

  @Test
  void tornSnapshotsOfReadersThatDoNotWaitAreCaught() throws Exception {
    Chaos.RunResult r = Chaos.withArgs(out, "--dir", dir.toString(), "--duration", "30", "--faults", "none",
        "--slow-scan-rows", "0", "--client-processes", "0", "--snapshot-threads", "2", "--broken", "snapshot-reads").run();
    assertFalse(r.valid(), "the checks catch what the snapshot-read rule prevents");
  }
}
