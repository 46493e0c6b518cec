package org.logbase.dist.storagedemo;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.logbase.common.Config;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;

/**
 * A process for crash tests and the demo to kill: opens (and so recovers) an engine, then writes
 * with several threads forever, printing {@code ACK ...} for each acknowledged write. With a crash
 * point, it prints {@code CRASHPOINT <name>} when execution reaches that point for the n-th time and
 * stops there, waiting for its {@code kill -9}.
 *
 * <p>Usage: {@code CrashWriter <root-uri> <threads> <point|none|self-kill> <n> [key=value ...]};
 * settings go to the engine's configuration. With {@value #SELF_KILL} it kills itself with {@code
 * kill -9} after n acknowledgements.
 */
public final class CrashWriter {
  /** As the point: after n acknowledgements the process sends itself SIGKILL. */
  public static final String SELF_KILL = "self-kill";

  private CrashWriter() {}

  public static void main(String[] args) throws Exception {
    URI root = URI.create(args[0]);
    int threads = Integer.parseInt(args[1]);
    String point = args[2];
    int nth = Integer.parseInt(args[3]);
    Config config = Config.empty();
    for (int i = 4; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      config = config.with(kv[0], kv[1]);
    }
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
        StandardCharsets.UTF_8);
    TabletDescriptor users = new TabletDescriptor(CheckedValues.USERS, 0, null, null);
    StorageEngine engine = StorageEngine.open(new EngineOptions(root, config, new Configuration(), List.of(users),
        null, stopAt(point, nth, out), true));
    synchronized (out) {
      out.println("RECOVERED " + engine.recoveryReport());
      out.flush();
    }
    Tablet t = engine.tablet(users.id());
    String incarnation = Long.toString(ProcessHandle.current().pid());
    AtomicInteger acked = new AtomicInteger();
    boolean selfKill = point.equals(SELF_KILL);
    List<Thread> writers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Thread th = new Thread(new CheckedWriter(t, "p" + incarnation + "w" + i, Long.MAX_VALUE, i, a -> {
        synchronized (out) {
          out.println(a.line());
          out.flush();
        }
        if (selfKill && acked.incrementAndGet() == nth) {
          killMyself(); // the other writers are mid-write when the signal lands
        }
      }), "writer-" + i);
      writers.add(th);
      th.start();
    }
    for (Thread th : writers) {
      th.join();
    }
  }

  private static void killMyself() {
    try {
      new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start();
    } catch (java.io.IOException e) {
      Runtime.getRuntime().halt(137);
    }
  }

  /** The engine's file system, wrapped so that the writer stops at the n-th time it reaches the point. */
  private static UnaryOperator<FileSystem> stopAt(String point, int nth, PrintStream out) {
    if (point.equals("none") || point.equals(SELF_KILL)) {
      return UnaryOperator.identity();
    }
    CrashPointFileSystem.Point p = CrashPointFileSystem.Point.of(point);
    if (p == null) {
      throw new IllegalArgumentException("unknown crash point '" + point + "'");
    }
    CountDownLatch never = new CountDownLatch(1);
    return fs -> new CrashPointFileSystem(fs, p, nth, () -> {
      synchronized (out) {
        out.println("CRASHPOINT " + point);
        out.flush();
      }
      try {
        never.await(); // hold here until kill -9 arrives
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }
}
