package org.logbase.dist.storagedemo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.logbase.log.Durability;
import org.logbase.tablet.Tablet;
import org.logbase.txn.TxnManager;

/**
 * One writer thread's loop: mostly new rows written across both column groups, sometimes a
 * one-column update of an earlier row; each acknowledgement goes to a sink as soon as the put
 * returned.
 */
public final class CheckedWriter implements Runnable {
  private final TxnManager txns;
  private final Tablet tablet;
  private final String prefix;
  private final long count;
  private final Consumer<Ack> acks;
  private final SplittableRandom rnd;

  /** @param count writes to make; Long.MAX_VALUE to write until the process dies */
  public CheckedWriter(TxnManager txns, Tablet tablet, String prefix, long count, long seed, Consumer<Ack> acks) {
    this.txns = txns;
    this.tablet = tablet;
    this.prefix = prefix;
    this.count = count;
    this.acks = acks;
    this.rnd = new SplittableRandom(seed);
  }

  @Override
  public void run() {
    try {
      for (long seq = 0; seq < count; seq++) {
        boolean update = seq > 10 && rnd.nextInt(10) < 3;
        String key = prefix + "-" + (update ? rnd.nextLong(seq) : seq);
        CheckedValues.Kind kind = update && rnd.nextBoolean() ? CheckedValues.Kind.PARTIAL : CheckedValues.Kind.FULL;
        Map<String, byte[]> cols = new HashMap<>();
        for (String c : kind.columns) {
          cols.put(c, CheckedValues.value(key, seq, kind, c));
        }
        long ts = txns.put(tablet, key.getBytes(StandardCharsets.UTF_8), cols, Durability.HFLUSH);
        acks.accept(new Ack(key, seq, kind, ts));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
