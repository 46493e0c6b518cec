package org.logbase.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.logbase.common.Bytes;

/** What every {@link LockManager} must do; a subclass per implementation supplies the manager. */
abstract class LockManagerContract {
  private final AtomicLong txnIds = new AtomicLong(1000);
  protected LockManager locks;

  /** A manager with no locks, used by one test. */
  protected abstract LockManager newManager() throws Exception;

  /** Lock attempts per thread in the contention test: as many as stay fast for the implementation. */
  protected abstract int contentionAttemptsPerThread();

  /** Checks that {@code row} is free; an implementation with external state checks that too. */
  protected void assertFree(LockKey row) throws Exception {
    assertNull(locks.holder(row), () -> row + " is still locked");
  }

  /** Checks that {@code owner} holds {@code row}; an implementation with external state checks that too. */
  protected void assertHeldBy(TxnLock owner, LockKey row) throws Exception {
    assertSame(owner, locks.holder(row), () -> row + " is not held by txn " + owner.txnId());
  }

  @BeforeEach
  void openManager() throws Exception {
    locks = newManager();
  }

  @AfterEach
  void closeManager() {
    locks.close();
  }

  protected TxnLock owner() {
    return TxnLock.of(txnIds.incrementAndGet(), null, null, false);
  }

  protected static LockKey row(int tableId, String key) {
    return new LockKey(tableId, Bytes.utf8(key));
  }

  @Test
  void anOwnerConflictingOnOneRowTakesNoneAndLearnsTheHolder() throws Exception {
    TxnLock first = owner();
    TxnLock second = owner();
    assertNull(locks.tryLockAll(List.of(row(1, "b")), first));

    assertSame(first, locks.tryLockAll(List.of(row(1, "a"), row(1, "b"), row(1, "c")), second));

    assertFree(row(1, "a"));
    assertHeldBy(first, row(1, "b"));
    assertFree(row(1, "c"));
    assertNull(locks.tryLockAll(List.of(row(1, "a"), row(1, "c")), owner()), "the rows second let go are free");
  }

  @Test
  void anOwnerMayLockRowsItHoldsAgain() throws Exception {
    TxnLock owner = owner();
    List<LockKey> rows = List.of(row(1, "a"), row(1, "b"), row(1, "c"));
    assertNull(locks.tryLockAll(rows.subList(0, 2), owner));

    assertNull(locks.tryLockAll(rows, owner));

    for (LockKey row : rows) {
      assertHeldBy(owner, row);
    }
    locks.unlockAll(rows, owner);
    for (LockKey row : rows) {
      assertFree(row);
    }
  }

  @Test
  void unlockFreesTheRowsAndCompletesReleased() throws Exception {
    TxnLock owner = owner();
    List<LockKey> rows = List.of(row(1, "a"), row(2, "a"));
    assertNull(locks.tryLockAll(rows, owner));
    assertFalse(owner.released().isDone());

    locks.unlockAll(rows, owner);

    assertTrue(owner.released().isDone());
    assertEquals(List.of(), locks.all());
    for (LockKey row : rows) {
      assertFree(row);
    }
    assertNull(locks.tryLockAll(rows, owner()));
  }

  @Test
  void unlockByAnotherOwnerLeavesTheHoldersRows() throws Exception {
    TxnLock holder = owner();
    TxnLock other = owner();
    assertNull(locks.tryLockAll(List.of(row(1, "a"), row(1, "b")), holder));
    assertNull(locks.tryLockAll(List.of(row(1, "c")), other));

    locks.unlockAll(List.of(row(1, "a"), row(1, "b"), row(1, "c")), other);

    assertHeldBy(holder, row(1, "a"));
    assertHeldBy(holder, row(1, "b"));
    assertFree(row(1, "c"));
    assertFalse(holder.released().isDone());
    assertSame(holder, locks.tryLockAll(List.of(row(1, "b")), owner()));
  }

  @Test
  void heldInCoversStartButNotEndAndOnlyItsTable() throws Exception {
    byte[] high = {(byte) 0xff}; // sorts after every ASCII key: keys compare unsigned
    List<LockKey> rows = List.of(row(0, "z"), row(1, "a"), row(1, "b"), row(1, "c"),
        new LockKey(1, high), row(2, "0"));
    List<TxnLock> owners = new ArrayList<>();
    for (LockKey row : rows) {
      TxnLock owner = owner();
      owners.add(owner);
      assertNull(locks.tryLockAll(List.of(row), owner));
    }
    TxnLock a = owners.get(1);
    TxnLock b = owners.get(2);
    TxnLock c = owners.get(3);
    TxnLock ff = owners.get(4);

    assertEquals(List.of(b), locks.heldIn(1, Bytes.utf8("b"), Bytes.utf8("c")));
    assertEquals(List.of(a, b), locks.heldIn(1, null, Bytes.utf8("c")));
    assertEquals(List.of(c, ff), locks.heldIn(1, Bytes.utf8("c"), null));
    assertEquals(List.of(a, b, c, ff), locks.heldIn(1, null, null));
    assertEquals(List.of(), locks.heldIn(1, Bytes.utf8("bb"), Bytes.utf8("c")));
    assertEquals(List.of(owners.get(5)), locks.heldIn(2, null, null));
    assertEquals(rows.size(), locks.all().size());
  }

  @Test
  void contendingOwnersNeverHoldTheSameRow() throws Exception {
    int threads = 8;
    List<LockKey> rows = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      rows.add(row(1 + i % 2, "row" + i));
    }
    AtomicInteger[] inside = new AtomicInteger[rows.size()];
    for (int i = 0; i < inside.length; i++) {
      inside[i] = new AtomicInteger();
    }
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger locked = new AtomicInteger();
    AtomicInteger conflicts = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Random random = new Random(t);
        done.add(pool.submit(() -> {
          start.await();
          for (int attempt = 0; attempt < contentionAttemptsPerThread(); attempt++) {
            Set<Integer> picked = new HashSet<>();
            int size = 1 + random.nextInt(4);
            while (picked.size() < size) {
              picked.add(random.nextInt(rows.size()));
            }
            TreeSet<LockKey> sorted = new TreeSet<>();
            picked.forEach(i -> sorted.add(rows.get(i)));
            List<LockKey> mine = List.copyOf(sorted);
            TxnLock me = owner();

            TxnLock holder = locks.tryLockAll(mine, me);
            if (holder != null) {
              assertNotSame(me, holder);
              for (LockKey row : mine) {
                assertNotSame(me, locks.holder(row), "a failed tryLockAll kept a row");
              }
              conflicts.incrementAndGet();
              continue;
            }
            locked.incrementAndGet();
            for (int i : picked) {
              if (inside[i].incrementAndGet() > 1) {
                overlaps.incrementAndGet();
              }
            }
            Thread.yield(); // let others try for these rows while they are held
            for (int i : picked) {
              inside[i].decrementAndGet();
            }
            locks.unlockAll(mine, me);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    assertEquals(0, overlaps.get(), "times two owners held the same row");
    assertTrue(locked.get() > 0, "no attempt locked its rows");
    assertTrue(conflicts.get() > 0, "no attempt met a held row: the test did not contend");
    assertEquals(List.of(), locks.all());
    for (LockKey row : rows) {
      assertFree(row);
    }
  }
}
