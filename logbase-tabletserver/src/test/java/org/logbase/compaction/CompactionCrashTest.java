package org.logbase.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.Row;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.TableSchema;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.ChildProcess;

/**
 * kill -9 of a compacting process at eleven moments ({@link CrashingFileSystem.Moment}: a temporary
 * sorted run of its input half written, and one written (its versions span several regions of
 * the log); the segment
 * created, half written, complete under its temporary name, renamed to its own; the index file and
 * the manifest edit of the switch, before and after; a later compaction deleting a segment no kept
 * checkpoint names; the log's garbage collection deleting a log segment no tablet needs), while it
 * goes on writing. After each, the engine opened again must hold every acknowledged write (the
 * newest value of every row, and no value for a row whose newest write was a delete: a tombstone
 * dropped with what it hid would bring an old value back), and again after a compaction that runs
 * to its end. The opener leaves no half-written file: a segment the crash cut off before it was
 * finished is gone, and so are the runs.
 */
class CompactionCrashTest {
  static final TableSchema T = new TableSchema("c", 9, List.of(
      new ColumnGroup(0, "g", List.of("v"), StoragePolicy.DEFAULT.withCompression(StoragePolicy.BlockCompression.LZ4))));
  static final TabletDescriptor WHOLE = new TabletDescriptor(T, 0, null, null);
  static final int ROWS = 300;
  static final int BEFORE = 2400;
  /** The most ops a child writes. */
  static final int MAX_OPS = BEFORE + 30_000;

  /** Op n: a put of a 200-byte value derived from n, or (one in six) a delete. */
  record Op(String key, byte[] value) {}

  @TempDir Path dir;

  static Op op(int n) {
    Random r = new Random(n * 7919L);
    String key = String.format("r%04d", r.nextInt(ROWS));
    if (r.nextInt(6) == 0) {
      return new Op(key, null);
    }
    byte[] v = new byte[200];
    r.nextBytes(v);
    return new Op(key, v);
  }

  @ParameterizedTest
  @EnumSource(CrashingFileSystem.Moment.class)
  void noAcknowledgedWriteIsLostAndNoDroppedVersionComesBack(CrashingFileSystem.Moment moment) throws Exception {
    int acked;
    try (ChildProcess child = new ChildProcess(CompactingChild.class, dir.resolve("child.log").toFile(),
        dir.toUri().toString(), moment.name())) {
      child.await(l -> l.equals("AT " + moment), Duration.ofMinutes(2));
      child.kill9();
      acked = child.lines().stream().filter(l -> l.startsWith("ACKED ")).mapToInt(l -> Integer.parseInt(l.substring(6)))
          .max().orElse(-1);
    }
    assertTrue(acked >= BEFORE - 1, "the compaction starts after " + BEFORE + " acknowledged ops: " + acked);
    EngineOptions o = EngineOptions.of(dir.toUri(), Config.of(Map.of(TabletCompaction.RETENTION_MS, "0",
        TabletCompaction.TXN_RETENTION_MS, "0")), List.of());
    try (StorageEngine e = StorageEngine.open(o)) {
      Tablet t = e.openTablet(WHOLE);
      check(t, acked, moment + ", reopened");
      assertEquals(List.of(), files(n -> n.endsWith(".lbs.tmp") || n.endsWith(".idx.tmp")),
          moment + ": the opener removes the files a crash left half-written");
      assertEquals(List.of(), files(n -> n.startsWith("run-")), moment + ": the opener removes a compaction's runs");
      if (moment.compareTo(CrashingFileSystem.Moment.SEGMENT_RENAMED) < 0) {
        assertEquals(List.of(), files(n -> n.startsWith("sorted-")),
            moment + ": the first compaction never finished its segment, so nothing of it stays");
      }
      CompactionReport r = e.compact(WHOLE.id());
      check(e.tabletOrNull(WHOLE.id()), acked, moment + ", compacted again: " + r);
      System.out.printf("COMPACTION CRASH at %s: %d ops acknowledged, every row read back as its newest; then %s%n",
          moment, acked + 1, r);
    }
    try (StorageEngine e = StorageEngine.open(o)) {
      check(e.openTablet(WHOLE), acked, moment + ", reopened after the second compaction");
    }
  }

  /** Names of the files under the test's directory that {@code which} accepts. */
  private List<String> files(Predicate<String> which) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(which).sorted().toList();
    }
  }

  /**
   * Every row's newest acknowledged op decides what it reads. The child writes one op at a time, so
   * only the op after {@code acked} may be durable without its acknowledgement having been printed:
   * its row may read that op's outcome instead. Every other row is checked exactly.
   */
  private static void check(Tablet t, int acked, String why) throws Exception {
    Map<String, Op> newest = new HashMap<>();
    for (int n = 0; n <= acked; n++) {
      Op op = op(n);
      newest.put(op.key(), op);
    }
    Op inFlight = op(acked + 1);
    int checked = 0;
    for (Map.Entry<String, Op> e : newest.entrySet()) {
      Row row = t.get(utf8(e.getKey()), null, HybridTimestamp.LATEST);
      byte[] got = row == null ? null : row.value("v");
      if (e.getKey().equals(inFlight.key()) && Arrays.equals(got, inFlight.value())) {
        continue; // the op in flight at the kill happened
      }
      if (e.getValue().value() == null) {
        assertNull(row, why + ": " + e.getKey() + " was deleted by its newest acknowledged op");
      } else {
        assertArrayEquals(e.getValue().value(), got, why + ": " + e.getKey());
      }
      checked++;
    }
    assertTrue(checked >= newest.size() - 1, why + ": " + checked + " of " + newest.size() + " rows checked");
  }

}
