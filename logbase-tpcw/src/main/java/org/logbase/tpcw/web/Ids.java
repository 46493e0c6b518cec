package org.logbase.tpcw.web;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;
import org.logbase.tpcw.schema.Sequences;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;

/**
 * New ids for orders, customers, addresses and carts, from the sequence rows: a block of
 * {@code block} ids at a time, taken in a small transaction of its own (read the next id, write it
 * moved on by the block), retried on conflict; the conflicts are counted. Ids of a block an
 * interaction did not use are lost, as with a database sequence. One per browser; not thread-safe.
 */
public final class Ids {
  public static final int MAX_BLOCK = 10_000;
  private static final int ATTEMPTS = 100;

  private final LogBaseClient client;
  private final int block;
  private final LongAdder conflicts;
  private final Map<TpcwTable, long[]> blocks = new EnumMap<>(TpcwTable.class);

  public Ids(LogBaseClient client, int block, LongAdder conflicts) {
    if (block < 1 || block > MAX_BLOCK) {
      throw new IllegalArgumentException("id block must be from 1 to " + MAX_BLOCK + ", got " + block);
    }
    this.client = client;
    this.block = block;
    this.conflicts = conflicts;
  }

  /** The next id of a table. */
  public long next(TpcwTable table) {
    long[] b = blocks.computeIfAbsent(table, t -> new long[] {0, 0}); // next, end (exclusive)
    if (b[0] == b[1]) {
      b[0] = take(table);
      b[1] = b[0] + block;
    }
    return b[0]++;
  }

  private long take(TpcwTable table) {
    byte[] key = Sequences.of(table);
    RuntimeException last = null;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      try (Transaction t = client.begin()) {
        Row seq = t.get(TpcwTable.SEQUENCES.table(), key, TpcwTable.SEQUENCES.group("seq"));
        long next = Values.num(seq, "next");
        t.put(TpcwTable.SEQUENCES.table(), key, Values.of("next", next + block));
        t.commit();
        return next;
      } catch (TransactionConflictException | TransactionAbortedException e) {
        conflicts.increment();
        last = e;
        Backoff.pause(attempt);
      }
    }
    throw last;
  }
}
