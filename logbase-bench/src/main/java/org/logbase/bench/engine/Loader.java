package org.logbase.bench.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import org.logbase.common.Threads;
import org.logbase.log.Durability;
import org.logbase.tablet.Tablet;
import org.logbase.txn.TxnManager;

/**
 * Writes a range of rows through a tablet with many concurrent writers: the fastest way to fill a
 * log through the engine, since group commit packs more records into each flush the more writers
 * wait.
 */
public final class Loader {
  private Loader() {}

  /** Writes rows [from, to) durably through the server's write path; returns records per second. Prints progress every ~10%. */
  static double load(TxnManager txns, Tablet tablet, KvRows rows, long from, long to, int writers) throws Exception {
    return load(txns, tablet, KvRows::key, rows::columns, from, to, writers);
  }

  /**
   * Writes rows [from, to) durably through the server's write path, row {@code r} as {@code key(r)}
   * with {@code columns(r)}; returns records per second. Prints progress every ~10%.
   */
  public static double load(TxnManager txns, Tablet tablet, LongFunction<byte[]> key,
      LongFunction<Map<String, byte[]>> columns, long from, long to, int writers) throws Exception {
    AtomicLong next = new AtomicLong(from);
    AtomicLong done = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      Thread t = Threads.newDaemon("loader-" + i, () -> {
        try {
          for (long r = next.getAndIncrement(); r < to && failure.get() == null; r = next.getAndIncrement()) {
            txns.put(tablet, key.apply(r), columns.apply(r), Durability.HFLUSH);
            done.incrementAndGet();
          }
        } catch (IOException | RuntimeException e) {
          failure.compareAndSet(null, e);
        }
      });
      threads.add(t);
    }
    long total = to - from;
    long t0 = System.nanoTime();
    threads.forEach(Thread::start);
    long reported = 0;
    for (Thread t : threads) {
      while (t.isAlive()) {
        t.join(1000);
        long d = done.get();
        if (total >= 100_000 && d - reported >= total / 10) {
          reported = d;
          System.out.printf("  loaded %,d of %,d rows (%.0f rows/s)%n", d, total, d / ((System.nanoTime() - t0) / 1e9));
        }
      }
    }
    if (failure.get() != null) {
      throw new IllegalStateException("loading rows failed: " + failure.get(), failure.get());
    }
    return total / ((System.nanoTime() - t0) / 1e9);
  }
}
