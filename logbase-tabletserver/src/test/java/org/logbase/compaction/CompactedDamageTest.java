package org.logbase.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
import org.logbase.log.Durability;
import org.logbase.sorted.SegmentDamageException;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;

/**
 * A byte flipped in a data block of a compacted tablet's sorted segment: reads of the rows in that
 * block fail with {@link SegmentDamageException} naming the file; every other read returns exactly
 * what was written; no read ever returns the damaged data.
 */
class CompactedDamageTest {
  static final int ROWS = 2000;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(StoragePolicy.BlockCompression.class)
  void aFlippedByteInABlockIsReportedAndNeverReturned(StoragePolicy.BlockCompression compression) throws Exception {
    TableSchema schema = new TableSchema("d", 3, List.of(
        new ColumnGroup(0, "g", List.of("v"), StoragePolicy.DEFAULT.withCompression(compression))));
    TabletDescriptor whole = new TabletDescriptor(schema, 0, null, null);
    EngineOptions o = EngineOptions.of(dir.toUri(), Config.empty(), List.of());
    try (StorageEngine e = StorageEngine.open(o); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.openTablet(whole);
      for (int i = 0; i < ROWS; i++) {
        txns.put(t, utf8(key(i)), Map.of("v", value(i)), Durability.HFLUSH);
      }
      CompactionReport r = e.compact(whole.id());
      assertEquals(ROWS, r.versionsOut());
    }
    Path segment;
    try (Stream<Path> files = Files.walk(dir)) {
      segment = files.filter(p -> p.getFileName().toString().startsWith("sorted-")).findFirst().orElseThrow();
    }
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      long at = 36 + 700; // inside the first data block (the header is 36 bytes)
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0x40);
    }
    int damaged = 0;
    try (StorageEngine e = StorageEngine.open(o)) {
      Tablet t = e.openTablet(whole);
      for (int i = 0; i < ROWS; i++) {
        int n = i;
        try {
          Row row = t.get(utf8(key(i)), null, HybridTimestamp.LATEST);
          assertArrayEquals(value(i), row.value("v"), "row " + key(i) + " read back as written");
        } catch (SegmentDamageException ex) {
          assertTrue(ex.getMessage().contains(segment.getFileName().toString()), ex.getMessage());
          damaged++;
        }
      }
      IOException scan = assertThrows(IOException.class, () -> t.scan(null, null, null, HybridTimestamp.LATEST, 0));
      assertTrue(scan instanceof SegmentDamageException, String.valueOf(scan));
    }
    assertTrue(damaged > 0 && damaged < ROWS, compression + ": " + damaged + " of " + ROWS + " rows in the damaged block");
    System.out.printf("DAMAGE %s: %d of %d rows refused (their block is damaged), the rest read back%n", compression,
        damaged, ROWS);
  }

  private static String key(int i) {
    return String.format("row%05d", i);
  }

  private static byte[] value(int i) {
    byte[] v = new byte[300];
    new Random(i).nextBytes(v);
    return v;
  }
}
