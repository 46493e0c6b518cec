package org.logbase.recovery;

import org.logbase.common.Row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.logbase.common.Config;
import org.logbase.log.Durability;
import org.logbase.log.LogConfig;
import org.logbase.log.LogFileSystems;
import org.logbase.log.LogRecord;
import org.logbase.log.LogWriter;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.MiniHdfs;
import org.logbase.testing.TestTables;

/** Checkpoint + tail recovery and full replay, on the local file system and on HDFS. */
class RecoveryTest {
  static final TabletDescriptor USERS = TestTables.whole(TestTables.USERS);
  static MiniHdfs hdfs;
  @TempDir static Path shared;
  @TempDir Path local;

  @BeforeAll
  static void startHdfs() throws Exception {
    hdfs = new MiniHdfs(shared.resolve("hdfs").toFile());
  }

  @AfterAll
  static void stopHdfs() {
    hdfs.close();
  }

  static Stream<String> fileSystems() {
    return Stream.of("local", "hdfs");
  }

  EngineOptions options(String fs, String name) {
    Config c = Config.empty().with(Checkpointer.UPDATES, Long.MAX_VALUE).with(LogConfig.SEGMENT_BYTES, "256k");
    if (fs.equals("hdfs")) {
      return EngineOptions.of(hdfs.uri("/" + name + "-" + System.nanoTime()), c, List.of(USERS)).withHadoop(hdfs.conf());
    }
    return EngineOptions.of(local.resolve(name).toUri(), c, List.of(USERS));
  }

  /** Writes rows, updates and deletes, remembering what the newest state must be. */
  static final class Workload {
    final Map<String, Map<String, String>> expected = new HashMap<>();
    final Random rnd = new Random(42);

    void run(Tablet t, int ops) throws Exception {
      for (int i = 0; i < ops; i++) {
        String key = "user" + rnd.nextInt(ops / 2 + 1);
        if (rnd.nextInt(10) == 0) {
          t.delete(utf8(key), Durability.HFLUSH);
          expected.remove(key);
        } else {
          Map<String, byte[]> cols = new HashMap<>();
          Map<String, String> exp = expected.computeIfAbsent(key, k -> new HashMap<>());
          for (String c : List.of("name", "email", "visits", "score")) {
            if (rnd.nextBoolean()) {
              String v = c + "-" + i + "-" + "x".repeat(rnd.nextInt(200));
              cols.put(c, utf8(v));
              exp.put(c, v);
            }
          }
          if (cols.isEmpty()) {
            cols.put("name", utf8("n" + i));
            exp.put("name", "n" + i);
          }
          t.put(utf8(key), cols, Durability.HFLUSH);
        }
      }
    }

    void verify(Tablet t) throws Exception {
      int rows = 0;
      for (Map.Entry<String, Map<String, String>> e : expected.entrySet()) {
        Row r = t.get(utf8(e.getKey()), null, LATEST);
        if (e.getValue().isEmpty()) {
          continue;
        }
        rows++;
        assertEquals(e.getValue().keySet(), r.cells().keySet(), "columns of " + e.getKey());
        e.getValue().forEach((c, v) -> assertArrayEquals(utf8(v), r.value(c), e.getKey() + "/" + c));
      }
      for (int i = 0; i < 600; i++) {
        if (!expected.containsKey("user" + i)) {
          assertNull(t.get(utf8("user" + i), null, LATEST), "user" + i + " is deleted or was never written");
        }
      }
      assertEquals(rows, t.scan(null, null, null, LATEST, 0).size());
    }
  }

  @ParameterizedTest
  @MethodSource("fileSystems")
  void recoveryLoadsTheCheckpointAndReplaysOnlyTheTail(String fs) throws Exception {
    EngineOptions o = options(fs, "tail");
    Workload w = new Workload();
    try (StorageEngine e = StorageEngine.open(o)) {
      w.run(e.tablet(USERS.id()), 1000);
      assertEquals(2, e.checkpoint().size(), "one checkpoint per column group");
      w.run(e.tablet(USERS.id()), 200);
    }
    try (StorageEngine e = StorageEngine.open(o)) {
      RecoveryReport r = e.recoveryReport();
      assertEquals(2, r.checkpointsLoaded());
      assertTrue(r.recordsReplayed() > 0 && r.recordsReplayed() < 600, "only the tail is replayed: " + r);
      assertTrue(r.damage().isEmpty(), r.damage().toString());
      w.verify(e.tablet(USERS.id()));
      // Writes after recovery continue the log and survive another restart.
      w.run(e.tablet(USERS.id()), 100);
    }
    try (StorageEngine e = StorageEngine.open(o.withCheckpoints(false))) {
      RecoveryReport r = e.recoveryReport();
      assertEquals(0, r.checkpointsLoaded());
      assertTrue(r.recordsReplayed() > 1300, "full replay reads everything: " + r);
      w.verify(e.tablet(USERS.id()));
    }
  }

  @Test
  void aDamagedNewestCheckpointFallsBackToTheOlderOne() throws Exception {
    EngineOptions o = options("local", "fallback");
    Workload w = new Workload();
    try (StorageEngine e = StorageEngine.open(o)) {
      w.run(e.tablet(USERS.id()), 300);
      e.checkpoint();
      w.run(e.tablet(USERS.id()), 300);
      e.checkpoint();
      w.run(e.tablet(USERS.id()), 50);
    }
    Path cg0 = local.resolve("fallback/checkpoints/t1-0/cg0");
    List<Path> idx;
    try (Stream<Path> s = Files.list(cg0)) {
      idx = s.filter(p -> p.toString().endsWith(".idx")).sorted().toList();
    }
    assertEquals(2, idx.size());
    byte[] b = Files.readAllBytes(idx.get(1));
    b[b.length / 2] ^= 1;
    Files.write(idx.get(1), b);
    Files.writeString(cg0.resolve("ckpt-99999999999999999999.idx.tmp"), "left by a crash");

    try (StorageEngine e = StorageEngine.open(o)) {
      RecoveryReport r = e.recoveryReport();
      assertEquals(1, r.problems().size(), r.problems().toString());
      assertTrue(r.problems().get(0).contains("CRC32C"), r.problems().get(0));
      assertEquals(2, r.checkpointsLoaded(), "cg0 from its older checkpoint, cg1 from its newest");
      w.verify(e.tablet(USERS.id()));
    }
    assertFalse(Files.exists(cg0.resolve("ckpt-99999999999999999999.idx.tmp")), "temporary files are cleaned up");
  }

  @Test
  void recordsWithoutACommitNeverReachAnIndex() throws Exception {
    EngineOptions o = options("local", "undecided");
    try (StorageEngine e = StorageEngine.open(o)) {
      e.tablet(USERS.id()).put(utf8("committed"), Map.of("name", utf8("yes")), Durability.HFLUSH);
    }
    // A transaction that wrote data but never committed, and one that aborted, appended behind the engine's back.
    URI root = local.resolve("undecided").toUri();
    try (FileSystem fs = LogFileSystems.open(root, new org.apache.hadoop.conf.Configuration());
        LogWriter w = LogWriter.open(fs, new org.apache.hadoop.fs.Path(root.toString(), "log"), LogConfig.DEFAULT,
            1000, (b, end) -> {})) {
      w.append(List.of(
          LogRecord.data(Long.MAX_VALUE / 2, 77, 1, 0, 0, utf8("pending"), List.of(new LogRecord.Column("name", utf8("no")))),
          LogRecord.data(Long.MAX_VALUE / 2, 78, 1, 0, 0, utf8("aborted"), List.of(new LogRecord.Column("name", utf8("no")))),
          LogRecord.abort(78)), Durability.HFLUSH).join();
    }
    try (StorageEngine e = StorageEngine.open(o)) {
      Tablet t = e.tablet(USERS.id());
      assertArrayEquals(utf8("yes"), t.get(utf8("committed"), null, LATEST).value("name"));
      assertNull(t.get(utf8("pending"), null, LATEST));
      assertNull(t.get(utf8("aborted"), null, LATEST));
      assertEquals(1, e.recoveryReport().undecidedDropped());
      assertEquals(1, t.scan(null, null, null, LATEST, 0).size());
    }
  }

  @Test
  void anIdleTabletDoesNotHoldRecoveryBackToAnOldPosition() throws Exception {
    TabletDescriptor kv = TestTables.whole(TestTables.KV);
    EngineOptions o = options("local", "idle");
    o = EngineOptions.of(o.root(), o.config(), List.of(USERS, kv));
    Workload w = new Workload();
    try (StorageEngine e = StorageEngine.open(o)) {
      e.tablet(kv.id()).put(utf8("k"), Map.of("v", utf8("old")), Durability.HFLUSH);
      w.run(e.tablet(USERS.id()), 500);
      e.checkpoint();
      w.run(e.tablet(USERS.id()), 500);
      e.checkpoint(); // kv took no updates: its checkpoint only moves forward
      w.run(e.tablet(USERS.id()), 20);
    }
    try (StorageEngine e = StorageEngine.open(o)) {
      RecoveryReport r = e.recoveryReport();
      assertEquals(3, r.checkpointsLoaded());
      assertTrue(r.recordsReplayed() < 60, "only the tail after the last checkpoint: " + r);
      assertArrayEquals(utf8("old"), e.tablet(kv.id()).get(utf8("k"), null, LATEST).value("v"));
      w.verify(e.tablet(USERS.id()));
    }
  }

  @Test
  void aServerWithNothingOnDiskStartsEmpty() throws Exception {
    File empty = local.resolve("fresh").toFile();
    try (StorageEngine e = StorageEngine.open(EngineOptions.of(empty.toURI(), Config.empty(), List.of(USERS)))) {
      assertEquals(0, e.recoveryReport().recordsReplayed());
      assertTrue(e.tablet(USERS.id()).scan(null, null, null, LATEST, 0).isEmpty());
    }
  }
}
