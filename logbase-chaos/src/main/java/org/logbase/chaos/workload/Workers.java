package org.logbase.chaos.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.logbase.chaos.history.HistoryFormat;
import org.logbase.chaos.history.Mop;
import org.logbase.chaos.history.Outcome;
import org.logbase.chaos.history.Txn;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Transaction;
import org.logbase.common.Config;
import org.logbase.common.FaultInjector;
import org.logbase.common.LogBaseException;
import org.logbase.common.Threads;
import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Workload threads, each with a client of its own (as independent applications would have): they
 * run until stopped and record every operation. Used by the runner and by client processes.
 */
public final class Workers {
  private static final Logger LOG = LoggerFactory.getLogger(Workers.class);

  private final Config clientConfig;
  private final Recorder recorder;
  private final FaultInjector clientFaults;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<Thread> threads = new ArrayList<>();
  private final List<Throwable> crashes = new ArrayList<>();

  public Workers(Config clientConfig, Recorder recorder) {
    this(clientConfig, recorder, FaultInjector.NONE);
  }

  /** @param clientFaults set on every client (a client process stalls some commits after prepare) */
  public Workers(Config clientConfig, Recorder recorder, FaultInjector clientFaults) {
    this.clientConfig = clientConfig;
    this.recorder = recorder;
    this.clientFaults = clientFaults;
  }

  /**
   * A list-append thread as process {@code process}; with a {@code printer}, each transaction is
   * also printed when it begins (as INFO, for a client that may be killed) and when it ends.
   */
  public void listAppend(ListAppend workload, int process, long seed, Consumer<String> printer) {
    spawn("list-append-" + process, client -> {
      Random rnd = new Random(seed);
      ListAppend.ValueSource values = new ListAppend.ValueSource(process);
      long n = 0;
      while (running.get()) {
        long id = ((long) process << 32) | ++n;
        List<Mop> plan = workload.plan(rnd, values);
        long invoke = workload.now();
        if (printer != null) {
          printer.accept(HistoryFormat.format(new Txn(id, process, invoke, -1, Outcome.INFO, plan)));
        }
        Txn t = workload.run(client, id, process, plan, invoke);
        recorder.txn(t);
        if (printer != null) {
          printer.accept(HistoryFormat.format(t));
        }
        backOffAfter(t.outcome() == Outcome.OK);
      }
    });
  }

  /** A bank transfer thread; with a {@code printer}, each outcome is printed as {@code B OUTCOME}. */
  public void transfers(Bank bank, long seed, Consumer<String> printer) {
    spawn("transfers-" + seed, client -> {
      Random rnd = new Random(seed);
      while (running.get()) {
        Outcome o = transfer(client, bank, rnd);
        recorder.transfer(o);
        if (printer != null) {
          printer.accept("B " + o);
        }
        backOffAfter(o == Outcome.OK);
      }
    });
  }

  private static Outcome transfer(LogBaseClient client, Bank bank, Random rnd) {
    Transaction t;
    try {
      t = client.begin();
      bank.transfer(t, rnd);
    } catch (RuntimeException e) {
      return Outcome.FAIL; // nothing was sent for commit
    }
    try {
      t.commit();
      return Outcome.OK;
    } catch (TransactionConflictException | TransactionAbortedException e) {
      return Outcome.FAIL;
    } catch (RuntimeException e) {
      return Outcome.INFO; // a server died during the commit: it may have committed
    }
  }

  /** A thread of counter increments; those acknowledged are recorded with their value. */
  public void increments(int process) {
    spawn("increments-" + process, client -> {
      String writer = "p" + process;
      while (running.get()) {
        Transaction t;
        long value;
        try {
          t = client.begin();
          value = Counter.increment(t, writer);
        } catch (RuntimeException e) {
          backOffAfter(false);
          continue;
        }
        try {
          long commit = t.commit();
          recorder.incremented(value, new Counter.Increment(writer, t.startTimestamp(), commit));
        } catch (RuntimeException e) {
          backOffAfter(false); // a conflict (the counter is hot) or an unknown outcome
        }
      }
    });
  }

  /** A thread taking bank snapshots, alternately by scan and by gets. */
  public void snapshots(Bank bank) {
    spawn("snapshots", client -> {
      boolean byScan = true;
      while (running.get()) {
        try {
          recorder.snapshot(bank.read(client, byScan));
        } catch (LogBaseException e) {
          recorder.snapshotFailed();
          backOffAfter(false);
        }
        byScan = !byScan;
      }
    });
  }

  /**
   * A thread that scans the slow-scan table whole again and again, slowly, with clients of {@code
   * scanConfig} (a stream deadline longer than a scan), and a thread that keeps rewriting its rows.
   */
  public void slowScans(SlowScans workload, long pauseMs, Config scanConfig, long seed) {
    spawn("slow-scans", scanConfig, client -> {
      while (running.get()) {
        try {
          SlowScans.Scan scan = workload.scanSlowly(client, pauseMs, running::get);
          if (scan != null) { // null: stopped before its end
            recorder.slowScan(scan);
          }
        } catch (LogBaseException e) {
          recorder.slowScanFailed(e);
          backOffAfter(false);
        }
      }
    });
    spawn("slow-scan-rewrites", client -> {
      Random rnd = new Random(seed);
      while (running.get()) {
        try {
          workload.rewriteSome(client, rnd);
          recorder.slowScanRewrite(true);
        } catch (LogBaseException e) {
          recorder.slowScanRewrite(false);
          backOffAfter(false);
        }
        Thread.sleep(100); // paced: 200 rows a second keep the table's compactions and log turning
      }
    });
  }

  /**
   * A thread of single-row writes, one-row puts and batch puts of 8 alternately, at most {@code
   * perSecond} calls a second (they are cheap: unpaced they would take the CPU the transactions
   * need on a small machine).
   */
  public void writes(int process, int perSecond) {
    spawn("writes-" + process, client -> {
      long n = 0;
      boolean batch = false;
      long intervalNanos = 1_000_000_000L / perSecond;
      long next = System.nanoTime();
      while (running.get()) {
        next += intervalNanos;
        long early = next - System.nanoTime();
        if (early > 0) {
          Thread.sleep(early / 1_000_000, (int) (early % 1_000_000)); // the load's pace
        } else {
          next = System.nanoTime();
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < (batch ? 8 : 1); i++) {
          keys.add(Writes.key(process, ++n));
        }
        try {
          if (batch) {
            Writes.putBatch(client, keys);
          } else {
            Writes.putOne(client, keys.get(0));
          }
          recorder.written(keys);
        } catch (LogBaseException e) {
          recorder.notWritten(keys.size());
          backOffAfter(false);
        }
        batch = !batch;
      }
    });
  }

  private interface Body {
    void run(LogBaseClient client) throws Exception;
  }

  private void spawn(String name, Body body) {
    spawn(name, clientConfig, body);
  }

  private void spawn(String name, Config config, Body body) {
    Thread t = Threads.newDaemon(name, () -> {
      try (LogBaseClient client = LogBaseClient.connect(config)) {
        client.setFaultInjector(clientFaults);
        body.run(client);
      } catch (Throwable e) {
        LOG.error("workload thread {} crashed", name, e);
        synchronized (crashes) {
          crashes.add(e);
        }
      }
    });
    threads.add(t);
    t.start();
  }

  /** After a failure a thread waits a little: a dead server is not hammered while it restarts. */
  private static void backOffAfter(boolean ok) throws InterruptedException {
    if (!ok) {
      Thread.sleep(50);
    }
  }

  /** Stops every thread after its current operation and waits for them. */
  public void stop() throws InterruptedException {
    running.set(false);
    for (Thread t : threads) {
      t.join(120_000);
      if (t.isAlive()) {
        throw new IllegalStateException("workload thread " + t.getName() + " did not stop within 120 s");
      }
    }
  }

  /** Threads that died of an unexpected error (a bug in the workload or the client). */
  public List<Throwable> crashes() {
    synchronized (crashes) {
      return List.copyOf(crashes);
    }
  }
}
