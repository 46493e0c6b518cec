package org.logbase.dist;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.logbase.dist.Histories.Variant;
import org.logbase.testing.BrokenTabletServer;

/**
 * The histories of {@link IsolationContract} against deliberately broken variants, each of which
 * must show its anomaly: this is how the contract's tests were checked to be able to fail. The
 * cluster's tablet servers run with validation off and readers that ignore locks ({@link
 * BrokenTabletServer}); the client-side variants read the newest versions instead
 * of the snapshot, or write at once instead of at commit.
 */
class BrokenIsolationTest extends IsolationCluster {
  @Override
  Map<String, String> settings() {
    return Map.of("txn.lock.ttl.ms", "1500");
  }

  @Override
  List<String> brokenTabletServers() {
    return List.of(BrokenTabletServer.BROKEN + "validation,snapshot-reads");
  }

  @Test
  void dirtyReadHappensWhenWritesAreNotBuffered() {
    assertTrue(histories.dirtyRead(Variant.WRITES_IMMEDIATELY, "dirty-read"));
  }

  @Test
  void fuzzyReadHappensWithoutSnapshots() {
    assertTrue(histories.fuzzyRead(Variant.READS_LATEST, "fuzzy-read"));
  }

  @Test
  void readSkewHappensWithoutSnapshots() {
    assertTrue(histories.readSkew(Variant.READS_LATEST, "read-skew"));
  }

  @Test
  void phantomHappensWithoutSnapshots() {
    assertTrue(histories.phantom(Variant.READS_LATEST, "phantom"));
  }

  @Test
  void dirtyWriteHappensWithoutValidation() {
    assertTrue(histories.dirtyWrite(Variant.SNAPSHOT, "dirty-write"));
  }

  @Test
  void lostUpdateHappensWithoutValidation() {
    assertTrue(histories.lostUpdate(Variant.SNAPSHOT, "lost-update"));
  }

  @Test
  void snapshotsAreNotRepeatableWhenReadersIgnoreLocks() throws Exception {
    AtomicReference<Throwable> t2 = new AtomicReference<>();
    assertTrue(histories.unrepeatableUnderPreparedWriter(pausing, "prepared-writer", t2));
    assertNull(t2.get(), "the stalled writer committed once released");
  }
}
