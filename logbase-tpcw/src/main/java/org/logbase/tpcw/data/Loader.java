package org.logbase.tpcw.data;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Put;
import org.logbase.common.Threads;
import org.logbase.tpcw.schema.Sequences;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;

/**
 * Writes a {@link Population} with batch puts from several threads, a chunk of entities (items,
 * customers, orders, ...) per task, and prints a progress line every few seconds. The sequence rows
 * go last: a database with them is completely loaded.
 */
public final class Loader {
  private static final int CHUNK = 250;
  private static final int BATCH_ROWS = 500;

  private final LogBaseClient client;
  private final Population population;
  private final int threads;
  private final PrintStream progress;
  private final AtomicLong entities = new AtomicLong();
  private final AtomicLong rows = new AtomicLong();

  public Loader(LogBaseClient client, Population population, int threads, PrintStream progress) {
    if (threads < 1 || threads > 256) {
      throw new IllegalArgumentException("load threads must be from 1 to 256, got " + threads);
    }
    this.client = client;
    this.population = population;
    this.threads = threads;
    this.progress = progress;
  }

  /** Loads everything; returns the number of rows written. */
  public long load(long seed, long nowMs) throws Exception {
    Scale s = population.scale();
    List<Runnable> tasks = new ArrayList<>();
    chunks(tasks, Scale.COUNTRIES, (c, sink) -> population.country((int) c, sink));
    chunks(tasks, s.authors(), (a, sink) -> population.author((int) a, sink));
    chunks(tasks, s.items(), (i, sink) -> population.item((int) i, sink));
    chunks(tasks, s.addresses(), population::address);
    chunks(tasks, s.customers(), population::customer);
    chunks(tasks, s.orders(), population::order);
    long total = Scale.COUNTRIES + s.authors() + s.items() + s.addresses() + s.customers() + s.orders();
    long start = System.nanoTime();
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(Threads.daemon("tpcw-load-progress"));
    ticker.scheduleAtFixedRate(() -> report(total, start), 5, 5, TimeUnit.SECONDS);
    ExecutorService pool = Executors.newFixedThreadPool(threads, Threads.daemon("tpcw-load"));
    try {
      List<Future<?>> done = new ArrayList<>();
      for (Runnable t : tasks) {
        done.add(pool.submit(t));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
      ticker.shutdownNow();
    }
    writeSequences(s, seed, nowMs);
    report(total, start);
    return rows.get();
  }

  /** One generator of entity {@code id} into a sink. */
  private interface Generator {
    void generate(long id, RowSink sink);
  }

  private void chunks(List<Runnable> tasks, long count, Generator g) {
    for (long from = 1; from <= count; from += CHUNK) {
      long first = from;
      long last = Math.min(count, from + CHUNK - 1);
      tasks.add(() -> {
        RowSink sink = new RowSink();
        for (long id = first; id <= last; id++) {
          g.generate(id, sink);
        }
        write(sink);
        entities.addAndGet(last - first + 1);
      });
    }
  }

  private void write(RowSink sink) {
    for (Map.Entry<TpcwTable, List<Put>> e : sink.byTable().entrySet()) {
      List<Put> puts = e.getValue();
      for (int i = 0; i < puts.size(); i += BATCH_ROWS) {
        client.table(e.getKey().table()).batchPut(puts.subList(i, Math.min(puts.size(), i + BATCH_ROWS)));
      }
    }
    rows.addAndGet(sink.count());
  }

  private void writeSequences(Scale s, long seed, long nowMs) {
    RowSink sink = new RowSink();
    sequence(sink, TpcwTable.ORDERS, s.orders());
    sequence(sink, TpcwTable.CUSTOMER, s.customers());
    sequence(sink, TpcwTable.ADDRESS, s.addresses());
    sequence(sink, TpcwTable.SHOPPING_CART, 0);
    sink.add(TpcwTable.SEQUENCES, Sequences.SCALE,
        Values.of("items", s.items(), "browsers", s.browsers(), "seed", seed, "load_time", nowMs));
    write(sink);
  }

  private static void sequence(RowSink sink, TpcwTable table, long loaded) {
    sink.add(TpcwTable.SEQUENCES, Sequences.of(table), Values.of("next", loaded + 1, "loaded", loaded));
  }

  private void report(long total, long startNanos) {
    double secs = Math.max(1e-3, (System.nanoTime() - startNanos) / 1e9);
    long e = entities.get();
    progress.printf("load: %,d of %,d entities (%d%%), %,d rows, %,.0f rows/s, %.0f s%n",
        e, total, e * 100 / total, rows.get(), rows.get() / secs, secs);
  }
}
