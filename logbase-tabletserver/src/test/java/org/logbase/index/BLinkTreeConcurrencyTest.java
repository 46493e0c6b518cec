package org.logbase.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.index.IndexAssertions.assertSameContent;
import static org.logbase.index.IndexAssertions.hex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writers insert disjoint and overlapping entries while readers check, without any locking of
 * their own, what must hold at every instant: cursors strictly increase, floor answers are
 * consistent, and anything a writer finished inserting is found from then on.
 */
class BLinkTreeConcurrencyTest {

  private static final int WRITERS = 4;
  private static final int READERS = 2;
  private static final int PUTS_PER_WRITER = 20_000;
  private static final int SHARED_KEYS = 2_000;
  private static final long DEADLINE_SECONDS = 60;

  /** The value is a function of (key, ts), so writers racing on the same version agree. */
  private static long pointerOf(byte[] key, long ts) {
    return Arrays.hashCode(key) * 31L + ts;
  }

  private static int metaOf(byte[] key, long ts) {
    return key.length ^ (int) ts;
  }

  /** What each writer inserts, in order: half its own keys, half keys every writer uses. */
  private static final class Workload {
    final byte[][][] keys = new byte[WRITERS][PUTS_PER_WRITER][];
    final long[][] timestamps = new long[WRITERS][PUTS_PER_WRITER];
    /** progress[w] = number of puts writer w has completed. */
    final AtomicIntegerArray progress = new AtomicIntegerArray(WRITERS);

    Workload(long seed) {
      Random random = new Random(seed);
      for (int w = 0; w < WRITERS; w++) {
        for (int j = 0; j < PUTS_PER_WRITER; j++) {
          boolean shared = random.nextBoolean();
          int id = shared ? random.nextInt(SHARED_KEYS) : random.nextInt(1 << 20);
          byte[] key = new byte[1 + random.nextInt(12)];
          random.nextBytes(key);
          key[0] = (byte) (shared ? 0x80 : w); // disjoint prefixes per writer, one shared prefix
          if (key.length > 4) {
            key[1] = (byte) (id >>> 16);
            key[2] = (byte) (id >>> 8);
            key[3] = (byte) id;
            Arrays.fill(key, 4, key.length, (byte) 0); // shared ids map to few distinct keys
          }
          keys[w][j] = key;
          timestamps[w][j] = random.nextInt(50);
        }
      }
    }

    ReferenceIndex union() {
      ReferenceIndex model = new ReferenceIndex();
      for (int w = 0; w < WRITERS; w++) {
        for (int j = 0; j < PUTS_PER_WRITER; j++) {
          byte[] key = keys[w][j];
          long ts = timestamps[w][j];
          model.put(key, ts, pointerOf(key, ts), metaOf(key, ts));
        }
      }
      return model;
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 64})
  void readersSeeConsistentTreeWhileWritersInsert(int capacity) throws Exception {
    Workload work = new Workload(capacity);
    BLinkTree tree = new BLinkTree(capacity);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicBoolean writersDone = new AtomicBoolean();
    CountDownLatch start = new CountDownLatch(1);
    int[] readerRounds = new int[READERS];

    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      writers.add(thread("writer-" + w, failure, () -> {
        start.await();
        for (int j = 0; j < PUTS_PER_WRITER && failure.get() == null; j++) {
          byte[] key = work.keys[writer][j];
          long ts = work.timestamps[writer][j];
          tree.put(key, ts, pointerOf(key, ts), metaOf(key, ts));
          work.progress.set(writer, j + 1);
        }
      }));
    }
    List<Thread> readers = new ArrayList<>();
    for (int r = 0; r < READERS; r++) {
      int reader = r;
      readers.add(thread("reader-" + r, failure, () -> {
        start.await();
        boolean last = false;
        while (!last && failure.get() == null) {
          last = writersDone.get(); // one more round after the writers finish
          checkRound(tree, work);
          readerRounds[reader]++;
        }
      }));
    }

    start.countDown();
    for (Thread t : writers) {
      joinWithDeadline(t);
    }
    writersDone.set(true);
    for (Thread t : readers) {
      joinWithDeadline(t);
    }
    if (failure.get() != null) {
      throw new AssertionError("a worker failed", failure.get());
    }
    for (int rounds : readerRounds) {
      assertTrue(rounds >= 2, "each reader must check while writing and after");
    }
    assertSameContent(work.union(), tree, "after concurrent inserts");
    TreeInvariants.check(tree, capacity);
  }

  /** One reader pass: a full scan plus point lookups of entries known to be inserted. */
  private static void checkRound(BLinkTree tree, Workload work) {
    int[] done = new int[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
      done[w] = work.progress.get(w);
    }
    List<IndexEntry> scanned = scanInOrder(tree);
    for (int w = 0; w < WRITERS; w++) {
      for (int j = 0; j < done[w]; j++) {
        byte[] key = work.keys[w][j];
        long ts = work.timestamps[w][j];
        assertTrue(contains(scanned, key, ts), () -> "scan missed completed put " + hex(key) + "@" + ts);
      }
    }
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int q = 0; q < 2_000; q++) {
      int w = random.nextInt(WRITERS);
      int completed = work.progress.get(w);
      if (completed == 0) {
        continue;
      }
      int j = random.nextInt(completed);
      byte[] key = work.keys[w][j];
      long ts = work.timestamps[w][j];
      IndexEntry exact = tree.floor(key, ts);
      assertNotNull(exact, () -> "completed put not found: " + hex(key) + "@" + ts);
      assertEquals(ts, exact.timestamp(), "floor at an existing version must return it");
      checkValue(exact);
      IndexEntry newest = tree.floor(key, Long.MAX_VALUE);
      assertTrue(newest.timestamp() >= ts, "newest version older than a known one");
      checkValue(newest);
      IndexCursor versions = tree.versions(key, ts);
      assertTrue(versions.next(), "versions missed a completed put");
      assertEquals(ts, versions.timestamp());
      long previous = ts;
      while (versions.next()) {
        assertTrue(Arrays.equals(key, versions.key()), "versions returned another key");
        assertTrue(versions.timestamp() < previous, "versions not newest first");
        previous = versions.timestamp();
      }
    }
  }

  private static List<IndexEntry> scanInOrder(BLinkTree tree) {
    List<IndexEntry> out = new ArrayList<>();
    IndexCursor cursor = tree.range(null, null);
    IndexEntry previous = null;
    while (cursor.next()) {
      IndexEntry e = new IndexEntry(cursor.key(), cursor.timestamp(), cursor.pointer(), cursor.meta());
      if (previous != null) {
        IndexEntry p = previous;
        assertTrue(ReferenceIndex.compare(p.key(), p.timestamp(), e.key(), e.timestamp()) < 0,
            () -> "cursor not strictly increasing: " + hex(p.key()) + "@" + p.timestamp()
                + " then " + hex(e.key()) + "@" + e.timestamp());
      }
      checkValue(e);
      out.add(e);
      previous = e;
    }
    return out;
  }

  private static boolean contains(List<IndexEntry> sorted, byte[] key, long ts) {
    int lo = 0;
    int hi = sorted.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      IndexEntry e = sorted.get(mid);
      int c = ReferenceIndex.compare(e.key(), e.timestamp(), key, ts);
      if (c == 0) {
        return true;
      }
      if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return false;
  }

  private static void checkValue(IndexEntry e) {
    assertEquals(pointerOf(e.key(), e.timestamp()), e.pointer(), "pointer of another version");
    assertEquals(metaOf(e.key(), e.timestamp()), e.meta(), "meta of another version");
  }

  @FunctionalInterface
  private interface Work {
    void run() throws Exception;
  }

  private static Thread thread(String name, AtomicReference<Throwable> failure, Work work) {
    Thread t = new Thread(() -> {
      try {
        work.run();
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      }
    }, name);
    t.start();
    return t;
  }

  private static void joinWithDeadline(Thread t) throws InterruptedException {
    t.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
    assertFalse(t.isAlive(), t.getName() + " did not finish within " + DEADLINE_SECONDS + " s");
  }
}
