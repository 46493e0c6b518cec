package org.logbase.chaos.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.logbase.common.Threads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starves a process of CPU, so that its timers fire late and its peers' timeouts fire while it is
 * slow. With a writable cgroup cpu controller (v1 {@code cpu.cfs_quota_us} or v2 {@code cpu.max};
 * root on this machine) the process is moved into a group with a small quota. Without one, the
 * runner starts busy threads that compete with every process for the cores: cruder, but it still
 * slows the whole cluster.
 */
public abstract class CpuLimiter {
  private static final Logger LOG = LoggerFactory.getLogger(CpuLimiter.class);
  private static final long PERIOD_US = 100_000;

  /** Limits a process to {@code percent} of one core until {@link #unlimit}. */
  public abstract void limit(long pid, int percent) throws IOException;

  public abstract void unlimit(long pid) throws IOException;

  /** How this limiter works, for the run's report. */
  public abstract String describe();

  /** The best limiter this machine allows. */
  public static CpuLimiter detect() {
    Path v1 = Path.of("/sys/fs/cgroup/cpu");
    if (Files.isWritable(v1.resolve("cgroup.procs")) && Files.exists(v1.resolve("cpu.cfs_quota_us"))) {
      return new CgroupLimiter(v1, false);
    }
    Path v2 = Path.of("/sys/fs/cgroup");
    try {
      if (Files.isWritable(v2.resolve("cgroup.procs"))
          && Files.readString(v2.resolve("cgroup.controllers")).contains("cpu")) {
        return new CgroupLimiter(v2, true);
      }
    } catch (IOException e) {
      LOG.debug("no cgroup v2 cpu controller: {}", e.toString());
    }
    return new BusyLimiter();
  }

  private static final class CgroupLimiter extends CpuLimiter {
    private final Path root;
    private final boolean v2;

    CgroupLimiter(Path root, boolean v2) {
      this.root = root;
      this.v2 = v2;
    }

    @Override
    public void limit(long pid, int percent) throws IOException {
      Path g = group(pid);
      Files.createDirectories(g);
      if (v2) {
        Files.writeString(root.resolve("cgroup.subtree_control"), "+cpu", StandardCharsets.US_ASCII);
        write(g.resolve("cpu.max"), (PERIOD_US * percent / 100) + " " + PERIOD_US);
      } else {
        write(g.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
        write(g.resolve("cpu.cfs_quota_us"), Long.toString(PERIOD_US * percent / 100));
      }
      write(g.resolve("cgroup.procs"), Long.toString(pid));
    }

    @Override
    public void unlimit(long pid) throws IOException {
      Path g = group(pid);
      if (!Files.exists(g)) {
        return;
      }
      // Move the processes back, and (v1) any thread a process was starting while it moved.
      for (String file : v2 ? List.of("cgroup.procs") : List.of("cgroup.procs", "tasks")) {
        for (String id : Files.readAllLines(g.resolve(file))) {
          try {
            write(root.resolve(file), id.trim());
          } catch (IOException e) {
            LOG.debug("{} left its cgroup already: {}", id, e.toString());
          }
        }
      }
      try {
        Files.delete(g);
      } catch (IOException e) {
        // A process that died in the group may linger as a zombie for a moment; an empty group
        // left behind costs nothing, and the next limit of the same pid reuses it.
        LOG.info("cgroup {} not removed yet: {}", g, e.toString());
      }
    }

    private Path group(long pid) {
      return root.resolve("logbase-chaos-" + pid);
    }

    private static void write(Path file, String value) throws IOException {
      Files.writeString(file, value, StandardCharsets.US_ASCII);
    }

    @Override
    public String describe() {
      return "cgroup " + (v2 ? "v2 cpu.max" : "v1 cpu.cfs_quota_us") + " under " + root;
    }
  }

  private static final class BusyLimiter extends CpuLimiter {
    private final Map<Long, List<Thread>> busy = new ConcurrentHashMap<>();

    @Override
    public void limit(long pid, int percent) {
      int n = Runtime.getRuntime().availableProcessors() * 2;
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Thread t = Threads.newDaemon("busy-neighbour-" + pid + "-" + i, () -> {
          long x = 0;
          while (!Thread.currentThread().isInterrupted()) {
            x += System.nanoTime() % 7;
          }
          if (x == 42) {
            LOG.trace("unlikely");
          }
        });
        t.setPriority(Thread.MAX_PRIORITY);
        t.start();
        threads.add(t);
      }
      busy.put(pid, threads);
    }

    @Override
    public void unlimit(long pid) {
      List<Thread> threads = busy.remove(pid);
      if (threads != null) {
        threads.forEach(Thread::interrupt);
      }
    }

    @Override
    public String describe() {
      return "busy neighbour threads (no writable cgroup cpu controller)";
    }
  }
}
