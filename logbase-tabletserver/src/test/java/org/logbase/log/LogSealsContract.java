package org.logbase.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link LogSeals} must do: the first seal of a segment wins and never changes, readers
 * of any instance over the same store see it, and sealers racing on one segment agree.
 */
public abstract class LogSealsContract {
  /** A view of one shared store: several calls give several clients of the same seals. */
  protected abstract LogSeals client() throws Exception;

  @Test
  void theFirstSealOfASegmentWinsForEveryClient() throws Exception {
    LogSeals a = client();
    LogSeals b = client();
    assertEquals(LogSeals.UNSEALED, a.sealedLength(7));
    assertEquals(1234, a.seal(7, 1234));
    assertEquals(1234, b.seal(7, 99_999), "sealed already: the earlier length stands");
    assertEquals(1234, b.sealedLength(7));
    assertEquals(1234, client().sealedLength(7));
    assertEquals(LogSeals.UNSEALED, b.sealedLength(8), "other segments are not sealed");
  }

  @Test
  void sealersRacingOnOneSegmentAgreeOnOneLength() throws Exception {
    int sealers = 6;
    List<LogSeals> clients = new ArrayList<>();
    for (int i = 0; i < sealers; i++) {
      clients.add(client());
    }
    ExecutorService pool = Executors.newFixedThreadPool(sealers);
    try {
      for (long segment = 100; segment < 120; segment++) {
        long seg = segment;
        List<Future<Long>> got = new ArrayList<>();
        for (int i = 0; i < sealers; i++) {
          LogSeals c = clients.get(i);
          long length = 1000 + i;
          got.add(pool.submit(() -> c.seal(seg, length)));
        }
        Set<Long> lengths = new HashSet<>();
        for (Future<Long> f : got) {
          lengths.add(f.get());
        }
        assertEquals(1, lengths.size(), "segment " + seg + " sealed at " + lengths);
        assertEquals(lengths.iterator().next(), clients.get(0).sealedLength(seg));
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
