package org.logbase.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.logbase.common.Bytes.utf8;

import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.index.MultiVersionIndex;
import org.logbase.log.Durability;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;

/**
 * What a compaction replaced is not kept: once a tablet's versions are in a sorted segment, the
 * dense index that held them must be unreachable, for a tablet opened with the engine (rebuilt by
 * the recovery of the log) as for one opened later. Otherwise heap would grow with the data, not
 * with what is written since the last compaction.
 */
class CompactedHeapTest {
  static final TabletDescriptor KV = TestTables.whole(TestTables.KV);

  @TempDir Path dir;

  @Test
  void theIndexACompactionReplacedBecomesGarbage() throws Exception {
    try (StorageEngine e = StorageEngine.open(EngineOptions.of(dir.toUri(), Config.empty(), List.of(KV)));
        TxnManager txns = TxnManager.standalone(e)) {
      for (int i = 0; i < 500; i++) {
        txns.put(e.tablet(KV.id()), utf8("row" + i), Map.of("v", utf8("value" + i)), Durability.HFLUSH);
      }
      WeakReference<MultiVersionIndex> before = new WeakReference<>(index(e).index());
      assertEquals(500, before.get().size());
      e.compact(KV.id());
      assertEquals(0, index(e).index().size(), "every version is in the segment");
      for (int i = 0; i < 20 && before.get() != null; i++) {
        System.gc();
      }
      assertNull(before.get(), "the index the compaction replaced is still reachable");
    }
  }

  private static GroupIndex index(StorageEngine e) {
    return e.registry().snapshot().get(KV.id()).groups()[0];
  }
}
