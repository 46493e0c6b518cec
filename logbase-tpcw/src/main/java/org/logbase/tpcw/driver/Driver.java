package org.logbase.tpcw.driver;

import com.sun.management.OperatingSystemMXBean;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.logbase.client.LogBaseClient;
import org.logbase.common.Row;
import org.logbase.common.Threads;
import org.logbase.tpcw.data.Scale;
import org.logbase.tpcw.data.TpcwRandom;
import org.logbase.tpcw.schema.Sequences;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;
import org.logbase.tpcw.web.Ids;
import org.logbase.tpcw.web.Session;
import org.logbase.tpcw.web.Store;

/**
 * A run: emulated browsers (threads) against a loaded TPC-W database for the warm-up and the
 * measured interval, a status line every few seconds, and the {@link Summary} at the end.
 */
public final class Driver {
  /** How long past the deadline browsers may take to finish their interaction before they are interrupted. */
  private static final long GRACE_MS = 60_000;

  private final LogBaseClient client;
  private final RunSettings settings;
  private final PrintStream status;

  public Driver(LogBaseClient client, RunSettings settings, PrintStream status) {
    this.client = client;
    this.settings = settings;
    this.status = status;
  }

  /** The scale of the database the cluster holds; a clear error when none is loaded. */
  public static Scale loadedScale(LogBaseClient client) {
    if (!client.admin().tableExists(TpcwTable.SEQUENCES.table())) {
      throw new IllegalStateException("no TPC-W database in this cluster: run 'bin/logbase tpcw load' first");
    }
    Row scale = client.table(TpcwTable.SEQUENCES.table()).get(Sequences.SCALE);
    if (scale == null) {
      throw new IllegalStateException("the TPC-W load did not finish (no scale row): load again with --replace");
    }
    return new Scale((int) Values.num(scale, "items"), (int) Values.num(scale, "browsers"));
  }

  public Summary run() throws InterruptedException {
    Scale scale = loadedScale(client);
    Store store = new Store(scale.items(), scale.customers());
    RunStats stats = new RunStats(settings.mix());
    long start = System.nanoTime();
    long measureFrom = start + TimeUnit.SECONDS.toNanos(settings.warmupSeconds());
    long end = measureFrom + TimeUnit.SECONDS.toNanos(settings.seconds());
    AtomicInteger errorsLogged = new AtomicInteger();
    List<Thread> browsers = new ArrayList<>();
    for (int b = 0; b < settings.browsers(); b++) {
      TpcwRandom random = new TpcwRandom(settings.seed() * 1_000_003L + b);
      Session session = new Session(random, new Ids(client, settings.idBlock(), stats.sequenceConflicts), 0);
      browsers.add(Threads.startDaemon("browser-" + b,
          new Browser(client, store, session, settings, stats, measureFrom, end, errorsLogged)));
    }
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(Threads.daemon("tpcw-status"));
    long[] cpuFrom = {processCpuNanos()};
    ticker.schedule(() -> cpuFrom[0] = processCpuNanos(), measureFrom - start, TimeUnit.NANOSECONDS);
    long[] last = {0, start};
    ticker.scheduleAtFixedRate(() -> statusLine(stats, start, last), settings.statusSeconds(),
        settings.statusSeconds(), TimeUnit.SECONDS);
    try {
      for (Thread t : browsers) {
        long leftMs = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()) + GRACE_MS;
        t.join(Math.max(1, leftMs));
        if (t.isAlive()) {
          t.interrupt();
        }
      }
      ticker.shutdown();
      ticker.awaitTermination(1, TimeUnit.MINUTES);
    } finally {
      ticker.shutdownNow();
    }
    double clientCores = (processCpuNanos() - cpuFrom[0]) / 1e9 / settings.seconds();
    return Summary.of(settings, settings.seconds(), stats, clientCores);
  }

  /** CPU time this JVM (the driver and its client) has used. */
  private static long processCpuNanos() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private void statusLine(RunStats stats, long start, long[] last) {
    long now = System.nanoTime();
    long done = stats.completedAll.sum();
    double rate = (done - last[0]) / Math.max(1e-3, (now - last[1]) / 1e9);
    last[0] = done;
    last[1] = now;
    status.printf(Locale.ROOT, "%4d s: %,d interactions, %.1f WIPS now; conflicts %,d, aborts %,d, gave up %,d, "
        + "errors %,d%n", TimeUnit.NANOSECONDS.toSeconds(now - start), done, rate, stats.sum(s -> s.conflicts),
        stats.sum(s -> s.aborts), stats.sum(s -> s.gaveUp), stats.sum(s -> s.errors));
  }
}
