package org.logbase.recovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.Row;
import org.logbase.files.FileIds;
import org.logbase.log.Durability;
import org.logbase.manifest.ManifestFencedException;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;

/**
 * A server that lost a tablet to a takeover without noticing (still running: paused past its
 * session, say) writes nothing its later openers read. Two engines on one shared directory, the
 * old owner's still open while the new one takes the tablet over from its log.
 */
class TakeoverFencingTest {
  static final TabletDescriptor PARENT = TestTables.whole(TestTables.KV);

  @TempDir File dir;
  final FileIds ids = FileIds.after(0);

  EngineOptions server(String name, List<TabletDescriptor> tablets) {
    Config c = Config.empty().with(Checkpointer.UPDATES, Long.MAX_VALUE).with(Checkpointer.INTERVAL_MS, Long.MAX_VALUE)
        .with(LogCollector.INTERVAL_MS, 0);
    return EngineOptions.of(dir.toURI().resolve(name), c, tablets).withShared(dir.toURI().resolve("shared"))
        .withFileIds(ids);
  }

  static void write(TxnManager txns, Tablet t, String prefix) throws IOException {
    for (int i = 0; i < 10; i++) {
      txns.put(t, utf8(prefix + i), Map.of("v", utf8(prefix)), Durability.HFLUSH);
    }
  }

  static void assertWritten(Tablet t, String prefix) throws IOException {
    for (int i = 0; i < 10; i++) {
      Row r = t.get(utf8(prefix + i), null, LATEST);
      assertNotNull(r, prefix + i);
      assertArrayEquals(utf8(prefix), r.value("v"), prefix + i);
    }
  }

  /**
   * Its split of the tablet, after the takeover, is refused: it used to read the manifest afresh
   * after its close (the new owner's, current) and retire the tablet the new owner serves, whose
   * every later edit was then refused and which no server could open again.
   */
  @Test
  void aSplitByTheServerThatLostTheTabletIsRefusedAndTheNewOwnerGoesOn() throws Exception {
    try (StorageEngine old = StorageEngine.open(server("ts1", List.of(PARENT)));
        TxnManager oldTxns = TxnManager.standalone(old)) {
      write(oldTxns, old.tablet(PARENT.id()), "a");
      old.checkpoint();
      try (StorageEngine taken = StorageEngine.open(server("ts2", List.of()));
          TxnManager txns = TxnManager.standalone(taken)) {
        write(txns, taken.openTablet(PARENT), "b");

        assertThrows(ManifestFencedException.class, () -> old.splitTablet(PARENT, utf8("m"), 1, 2));

        taken.checkpoint();
        write(txns, taken.tablet(PARENT.id()), "c");
      }
    }
    try (StorageEngine next = StorageEngine.open(server("ts3", List.of(PARENT)))) {
      for (String prefix : List.of("a", "b", "c")) {
        assertWritten(next.tablet(PARENT.id()), prefix);
      }
    }
  }

  /**
   * Its checkpoint after the takeover is refused and leaves nothing in the tablet's directory: it
   * used to leave an index file there that no manifest names, one more each second the background
   * checks tried again.
   */
  @Test
  void aCheckpointByTheServerThatLostTheTabletIsRefusedAndLeavesNoFile() throws Exception {
    try (StorageEngine old = StorageEngine.open(server("ts1", List.of(PARENT)));
        TxnManager oldTxns = TxnManager.standalone(old)) {
      write(oldTxns, old.tablet(PARENT.id()), "a");
      old.checkpoint();
      try (StorageEngine taken = StorageEngine.open(server("ts2", List.of()));
          TxnManager txns = TxnManager.standalone(taken)) {
        write(txns, taken.openTablet(PARENT), "b");
        taken.checkpoint();
        Set<Path> before = indexFiles();
        write(oldTxns, old.tablet(PARENT.id()), "x"); // its index has changed: a checkpoint writes it

        for (int attempt = 0; attempt < 3; attempt++) {
          assertThrows(ManifestFencedException.class, old::checkpoint);
          assertEquals(before, indexFiles());
        }

        write(txns, taken.tablet(PARENT.id()), "c");
        taken.checkpoint();
      }
    }
    try (StorageEngine next = StorageEngine.open(server("ts3", List.of(PARENT)))) {
      for (String prefix : List.of("a", "b", "c")) {
        assertWritten(next.tablet(PARENT.id()), prefix);
      }
    }
  }

  /** Every checkpoint index file under the servers' directories. */
  private Set<Path> indexFiles() throws IOException {
    try (Stream<Path> all = Files.walk(dir.toPath())) {
      return all.filter(p -> p.getFileName().toString().endsWith(".idx")).collect(Collectors.toSet());
    }
  }
}
