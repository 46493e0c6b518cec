package org.logbase.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.logbase.common.Bytes;
import org.logbase.common.LogBaseException;
import org.logbase.common.ZkPaths;
import org.logbase.testing.MiniZooKeeper;

/** The contract against a real ZooKeeper, plus what the znodes add: their life, restarts, outages. */
class ZooKeeperLockManagerTest extends LockManagerContract {
  private static final AtomicInteger ROOTS = new AtomicInteger();
  private static MiniZooKeeper zooKeeper;
  private static CuratorFramework zk;
  private String locksRoot;

  @BeforeAll
  static void startZooKeeper() throws Exception {
    zooKeeper = new MiniZooKeeper();
    zk = zooKeeper.client();
  }

  @AfterAll
  static void stopZooKeeper() throws Exception {
    zooKeeper.close();
  }

  @Override
  protected LockManager newManager() {
    locksRoot = new ZkPaths("/test-" + ROOTS.incrementAndGet()).locks();
    return new ZooKeeperLockManager(zk, locksRoot);
  }

  @Override
  protected int contentionAttemptsPerThread() {
    return 250;
  }

  @Override
  protected void assertFree(LockKey row) throws Exception {
    super.assertFree(row);
    assertNull(zk.checkExists().forPath(znode(row)), () -> "znode of " + row + " is still there");
  }

  @Override
  protected void assertHeldBy(TxnLock owner, LockKey row) throws Exception {
    super.assertHeldBy(owner, row);
    assertEquals(owner.txnId(), txnIdIn(row));
  }

  private String znode(LockKey row) {
    return locksRoot + "/" + row.tableId() + "/" + HexFormat.of().formatHex(row.key());
  }

  private long txnIdIn(LockKey row) throws Exception {
    return ByteBuffer.wrap(zk.getData().forPath(znode(row))).getLong();
  }

  @Test
  void aLockedRowHasAZnodeNamedByItsKeyInHexHoldingTheTxnId() throws Exception {
    LockKey odd = new LockKey(7, new byte[] {0, (byte) 0xff, '/'});
    TxnLock owner = TxnLock.of(0x0102030405060708L, null, null, false);
    assertNull(locks.tryLockAll(List.of(odd, row(7, "b")), owner));

    assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, zk.getData().forPath(locksRoot + "/7/00ff2f"));
    assertEquals(owner.txnId(), txnIdIn(row(7, "b")));

    locks.unlockAll(List.of(odd, row(7, "b")), owner);
    assertNull(zk.checkExists().forPath(locksRoot + "/7/00ff2f"));
    assertFree(row(7, "b"));
  }

  @Test
  void aRestartedServerTakesOverItsPreparedLocksWhileOtherTxnsStillConflict() throws Exception {
    List<LockKey> prepared = List.of(row(1, "a"), row(1, "b"));
    assertNull(locks.tryLockAll(prepared, TxnLock.of(42, "t", Bytes.utf8("a"), true)));
    // The server dies without unlocking. Its successor starts with an empty local view.
    LockManager restarted = new ZooKeeperLockManager(zk, locksRoot);

    TxnLock other = TxnLock.of(43, null, null, false);
    assertEquals(42, restarted.tryLockAll(List.of(row(1, "0"), row(1, "b")), other).txnId());
    assertEquals(42, restarted.tryLockAll(List.of(row(1, "a")), other).txnId());
    assertNull(restarted.holder(row(1, "0")));
    assertNull(zk.checkExists().forPath(znode(row(1, "0"))), "all or none holds in ZooKeeper too");

    TxnLock recovered = TxnLock.of(42, "t", Bytes.utf8("a"), true);
    List<LockKey> withMore = List.of(row(1, "a"), row(1, "b"), row(1, "c"));
    assertNull(restarted.tryLockAll(withMore, recovered));
    assertSame(recovered, restarted.holder(row(1, "a")));
    assertEquals(42, txnIdIn(row(1, "c")));

    restarted.unlockAll(withMore, recovered);
    for (LockKey row : withMore) {
      assertNull(zk.checkExists().forPath(znode(row)));
    }
  }

  @Test
  void aTakeOverThatConflictsLaterLeavesTheRecoveredLockAsItWas() throws Exception {
    assertNull(locks.tryLockAll(List.of(row(1, "a")), TxnLock.of(42, null, null, true)));
    assertNull(locks.tryLockAll(List.of(row(1, "z")), TxnLock.of(99, null, null, false)));
    LockManager restarted = new ZooKeeperLockManager(zk, locksRoot);

    TxnLock recovered = TxnLock.of(42, null, null, true);
    assertEquals(99, restarted.tryLockAll(List.of(row(1, "a"), row(1, "m"), row(1, "z")), recovered).txnId());

    assertEquals(42, txnIdIn(row(1, "a")), "the znode was 42's before the call and stays so");
    assertNull(zk.checkExists().forPath(znode(row(1, "m"))));
    assertEquals(List.of(), restarted.all());
  }

  @Test
  void lockingFailsInBoundedTimeWhileZooKeeperIsDownAndUnlockStillReleases() throws Exception {
    try (MiniZooKeeper failing = new MiniZooKeeper(500)) {
      LockManager cut = new ZooKeeperLockManager(failing.client(), "/locks");
      TxnLock before = owner();
      assertNull(cut.tryLockAll(List.of(row(1, "a")), before));

      failing.server().stop();

      List<LockKey> rows = List.of(row(1, "b"), row(1, "c"));
      LogBaseException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
          () -> assertThrows(LogBaseException.class, () -> cut.tryLockAll(rows, owner())));
      assertTrue(e.getMessage().contains("ZooKeeper"), e.getMessage());
      assertNull(cut.holder(row(1, "b")));
      assertNull(cut.holder(row(1, "c")));

      // Slower than the lock: each of its two delete attempts waits for the client to fail twice.
      assertTimeoutPreemptively(Duration.ofSeconds(15), () -> cut.unlockAll(List.of(row(1, "a")), before));
      assertTrue(before.released().isDone());
      assertEquals(List.of(), cut.all());
    }
  }
}
