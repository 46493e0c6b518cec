package org.logbase.chaos.cluster;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.logbase.common.Threads;

/**
 * One process of the cluster under test (ZooKeeper, a master, a tablet server, a client): a child
 * JVM on this JVM's classpath that can be started again after it died, killed with SIGKILL, paused
 * with SIGSTOP and resumed. Its stderr (where its log goes) is appended to one file across restarts,
 * with a banner per start; its stdout lines are kept for the current incarnation and passed to a
 * listener (client processes report their history there).
 */
public final class Daemon {
  private final String name;
  private final Class<?> main;
  private final List<String> jvmOptions;
  private final String classpath;
  private final List<String> args;
  private final File log;
  private final Consumer<String> stdoutListener;
  private final List<String> lines = new ArrayList<>();
  private static final int TAIL_BYTES = 4096;
  private Process process;
  private Thread reader;
  private int starts;
  private boolean paused;

  public Daemon(String name, Class<?> main, List<String> jvmOptions, List<String> args, File log,
      Consumer<String> stdoutListener) {
    this(name, main, jvmOptions, null, args, log, stdoutListener);
  }

  /**
   * @param confDir a directory put first on the process's classpath (HDFS daemons and clients find
   *     their core-site.xml and hdfs-site.xml there), or null
   */
  public Daemon(String name, Class<?> main, List<String> jvmOptions, File confDir, List<String> args, File log,
      Consumer<String> stdoutListener) {
    this.name = name;
    this.main = main;
    this.jvmOptions = List.copyOf(jvmOptions);
    String own = System.getProperty("java.class.path");
    this.classpath = confDir == null ? own : confDir.getPath() + File.pathSeparator + own;
    this.args = List.copyOf(args);
    this.log = log;
    this.stdoutListener = stdoutListener;
  }

  public String name() {
    return name;
  }

  /** Starts a new incarnation; the previous one must be dead. */
  public synchronized void start() throws IOException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException(name + " is running already");
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", classpath, main.getName()));
    cmd.addAll(args);
    starts++;
    Files.writeString(log.toPath(), String.format("%n==== %s start #%d at %s ====%n", name, starts, Instant.now()),
        StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    synchronized (lines) {
      lines.clear();
    }
    paused = false;
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log)).start();
    process = p;
    reader = Threads.newDaemon(name + "-stdout", () -> readLines(p));
    reader.start();
  }

  private void readLines(Process p) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        stdoutListener.accept(line);
        synchronized (lines) {
          lines.add(line);
          lines.notifyAll();
        }
      }
    } catch (IOException e) {
      // The pipe breaks when the process is killed; what was read is kept.
    }
    synchronized (lines) {
      lines.notifyAll();
    }
  }

  /** Waits until the current incarnation printed a line that satisfies the condition; returns it. */
  public String await(Predicate<String> condition, Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    Process p;
    Thread r;
    synchronized (this) {
      p = process;
      r = reader;
    }
    synchronized (lines) {
      while (true) {
        for (String l : lines) {
          if (condition.test(l)) {
            return l;
          }
        }
        if (!p.isAlive() && !r.isAlive()) {
          throw DaemonDiedException.of(this, "exited (" + p.exitValue() + ") before it was ready");
        }
        long left = Duration.between(Instant.now(), deadline).toMillis();
        if (left <= 0) {
          throw DaemonDiedException.of(this, "was not ready within " + timeout);
        }
        lines.wait(Math.min(left, 200));
      }
    }
  }

  /** The last line of the current incarnation's stdout starting with {@code prefix}, or null. */
  public String lastLine(String prefix) {
    synchronized (lines) {
      for (int i = lines.size() - 1; i >= 0; i--) {
        if (lines.get(i).startsWith(prefix)) {
          return lines.get(i);
        }
      }
      return null;
    }
  }

  /** SIGKILL, then waits for the process and its output to end. No-op if it is not running. */
  public void kill9() throws InterruptedException {
    Process p;
    synchronized (this) {
      p = process;
      if (p == null || !p.isAlive()) {
        return;
      }
      paused = false; // SIGKILL ends a stopped process too
    }
    p.destroyForcibly();
    p.waitFor();
    reader.join(10_000);
  }

  /** SIGSTOP: the process stops where it is, its sockets open, until {@link #resume}. */
  public synchronized void pause() throws IOException, InterruptedException {
    if (isAlive()) {
      signal("STOP");
      paused = true;
    }
  }

  /** SIGCONT after {@link #pause}. */
  public synchronized void resume() throws IOException, InterruptedException {
    if (paused && isAlive()) {
      signal("CONT");
    }
    paused = false;
  }

  private void signal(String sig) throws IOException, InterruptedException {
    Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid())).inheritIO().start();
    if (k.waitFor() != 0) {
      throw new IOException("kill -" + sig + " " + process.pid() + " failed");
    }
  }

  public synchronized boolean isAlive() {
    return process != null && process.isAlive();
  }

  public synchronized boolean isPaused() {
    return paused;
  }

  /** The pid of the current incarnation (it may have exited). */
  public synchronized long pid() {
    return process.pid();
  }

  /** Exit status of the last incarnation, or -1 while it runs or before it started. */
  public synchronized int exitValue() {
    return process == null || process.isAlive() ? -1 : process.exitValue();
  }

  public synchronized int starts() {
    return starts;
  }

  public File log() {
    return log;
  }

  /** Kills the process if it runs (end of a run). */
  public void stop() throws InterruptedException {
    kill9();
  }

  /** Raised when a daemon dies or hangs while the runner waits for it. */
  public static final class DaemonDiedException extends RuntimeException {
    public DaemonDiedException(String message) {
      super(message);
    }

    /**
     * "{@code d} {@code what}", with the end of its log: the run's directory may be gone by the
     * time anyone reads the message (a test's temporary directory in CI).
     */
    public static DaemonDiedException of(Daemon d, String what) {
      return new DaemonDiedException(d + " " + what + "; see " + d.log() + "; it ends:\n" + d.logTail());
    }
  }

  /** The last lines of the log (at most {@link #TAIL_BYTES}), or why they could not be read. */
  public String logTail() {
    try (RandomAccessFile f = new RandomAccessFile(log, "r")) {
      long from = Math.max(0, f.length() - TAIL_BYTES);
      byte[] bytes = new byte[(int) (f.length() - from)];
      f.seek(from);
      f.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(its log could not be read: " + e + ")";
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
