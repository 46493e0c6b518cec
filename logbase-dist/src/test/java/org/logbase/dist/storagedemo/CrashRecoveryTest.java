package org.logbase.dist.storagedemo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.logbase.common.Config;
import org.logbase.dist.storagedemo.CheckedValues.Kind;
import org.logbase.log.LogDamage;
import org.logbase.recovery.RecoveryReport;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.ChildProcess;
import org.logbase.testing.MiniHdfs;

/**
 * A child JVM writes with 8 threads, its acknowledgements recorded here, and is killed with kill -9
 * at chosen moments; after recovery every acknowledged write must be present and byte-identical,
 * and nothing unacknowledged may be half-visible.
 *
 * <p>How we know it can fail: with the log writer's hflush removed (acknowledging unflushed data),
 * three of the kill points report lost acknowledged writes; with the index applier installing
 * records before their COMMIT, the mid-batch kill reports a half-visible two-group write. {@link
 * AckVerifierTest} checks the checker itself.
 */
class CrashRecoveryTest {
  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final TabletDescriptor USERS = new TabletDescriptor(CheckedValues.USERS, 0, null, null);
  /** Small segments so rolls happen; frequent checkpoints so crashes meet them. */
  static final String[] SETTINGS = {"log.segment.bytes=512k", "checkpoint.updates=1500"};

  @TempDir static Path shared;
  @TempDir Path dir;
  static MiniHdfs hdfs;

  @BeforeAll
  static void startHdfs() throws Exception {
    hdfs = new MiniHdfs(shared.resolve("hdfs").toFile());
  }

  @AfterAll
  static void stopHdfs() {
    hdfs.close();
  }

  /** Runs the writer until {@code point} is reached for the n-th time (or, for "none", until 2,000 acks), then kill -9. */
  List<Ack> crashAt(URI root, String point, int nth, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of(root.toString(), "8", point, Integer.toString(nth)));
    args.addAll(List.of(SETTINGS));
    args.addAll(List.of(extra));
    try (ChildProcess child = new ChildProcess(CrashWriter.class, dir.resolve("child-" + System.nanoTime() + ".log").toFile(),
        args.toArray(String[]::new))) {
      if (point.equals("none")) {
        child.awaitCount(l -> Ack.parse(l) != null, 2000, TIMEOUT);
      } else {
        child.await(l -> l.equals("CRASHPOINT " + point), TIMEOUT);
      }
      child.kill9();
      return child.lines().stream().map(Ack::parse).filter(Objects::nonNull).toList();
    }
  }

  AckVerifier.Result recoverAndVerify(EngineOptions o, List<Ack> acks) throws Exception {
    try (StorageEngine e = StorageEngine.open(o)) {
      lastReport = e.recoveryReport();
      AckVerifier.Result r = AckVerifier.verify(e.tablet(USERS.id()), acks);
      assertTrue(r.ok(), r.toString());
      assertTrue(lastReport.damage().stream().noneMatch(d -> d.kind() == LogDamage.Kind.CORRUPT),
          "a crash leaves torn tails, never corruption: " + lastReport.damage());
      return r;
    }
  }

  RecoveryReport lastReport;

  EngineOptions local() {
    return EngineOptions.of(dir.resolve("server").toUri(), Config.empty(), List.of(USERS));
  }

  @ParameterizedTest(name = "kill -9 at {0}")
  @ValueSource(strings = {
      "none",                       // an arbitrary moment under load
      "log.mid-batch",              // half a group-commit batch on disk
      "log.after-flush",            // flushed, not yet applied or acknowledged
      "log.roll",                   // a new segment just started
      "checkpoint.mid-index",       // a checkpoint's index file half written
      "checkpoint.before-manifest"  // index file complete, manifest not written
  })
  void everyAcknowledgedWriteSurvivesAKillAt(String point) throws Exception {
    // Late enough that there is history to lose; for checkpoints the third write, so complete
    // checkpoints exist and one is cut short.
    int nth = switch (point) {
      case "log.mid-batch" -> 300;
      case "log.after-flush" -> 150;
      default -> 3;
    };
    List<Ack> acks = crashAt(dir.resolve("server").toUri(), point, nth);
    assertTrue(acks.size() > 100, "the writer made progress before the crash: " + acks.size());
    AckVerifier.Result r = recoverAndVerify(local(), acks);
    assertEquals(acks.size(), r.acked());
    if (point.equals("log.mid-batch")) {
      assertTrue(lastReport.undecidedDropped() > 0, "the crash split a two-group write: " + lastReport);
    }
    if (point.startsWith("checkpoint.")) {
      assertEquals(2, lastReport.checkpointsLoaded(), "recovery used the complete checkpoints: " + lastReport);
    }
  }

  @Test
  void crashesDuringRecoveryAndRepeatedCrashesLoseNothing() throws Exception {
    URI root = dir.resolve("server").toUri();
    List<Ack> acks = new ArrayList<>(crashAt(root, "none", 0, "checkpoint.updates=100000000"));
    // The next incarnation dies while replaying the log; the one after that must still recover.
    acks.addAll(crashAt(root, "recovery.replay", 1, "checkpoint.updates=100000000"));
    acks.addAll(crashAt(root, "log.mid-batch", 30));
    recoverAndVerify(local(), acks);
  }

  @Test
  void onHdfsAKilledWritersLogIsFencedAndRecovered() throws Exception {
    URI root = hdfs.uri("/crash-" + System.nanoTime());
    List<Ack> acks = new ArrayList<>(crashAt(root, "log.mid-batch", 40));
    acks.addAll(crashAt(root, "none", 0));
    AckVerifier.Result r = recoverAndVerify(
        EngineOptions.of(root, Config.empty(), List.of(USERS)).withHadoop(hdfs.conf()), acks);
    assertTrue(r.rows() > 0);
  }
}
