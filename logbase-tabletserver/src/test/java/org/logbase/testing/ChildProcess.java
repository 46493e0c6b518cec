package org.logbase.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A child JVM on this JVM's classpath whose stdout is recorded line by line in this process, so what
 * it printed (its acknowledgements, say) outlives it; killed with a real {@code kill -9}.
 */
public final class ChildProcess implements AutoCloseable {
  private final Process process;
  private final List<String> lines = new ArrayList<>();
  private final Thread reader;

  public ChildProcess(Class<?> main, File log, String... args) throws IOException {
    this(main, List.of("-Xmx256m"), log, args);
  }

  /** A child running {@code main} with the given JVM options; its stderr goes to {@code log}. */
  public ChildProcess(Class<?> main, List<String> jvmOptions, File log, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(List.of(args));
    process = new ProcessBuilder(cmd).redirectError(log).start();
    reader = new Thread(this::readLines, "child-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  private void readLines() {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        synchronized (lines) {
          lines.add(line);
          lines.notifyAll();
        }
      }
    } catch (IOException e) {
      // The pipe breaks when the child is killed; what was read is kept.
    }
    synchronized (lines) {
      lines.notifyAll();
    }
  }

  /** Waits until some line satisfies the condition; fails after the deadline or if the child exits first. */
  public String await(Predicate<String> condition, Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    synchronized (lines) {
      while (true) {
        for (String l : lines) {
          if (condition.test(l)) {
            return l;
          }
        }
        if (!process.isAlive() && !reader.isAlive()) {
          throw new AssertionError("child exited (" + process.exitValue() + ") before the awaited line; see its log");
        }
        long left = Duration.between(Instant.now(), deadline).toMillis();
        if (left <= 0) {
          throw new AssertionError("timed out waiting for the child; last lines: " + tail());
        }
        lines.wait(Math.min(left, 500));
      }
    }
  }

  /** Waits until the child printed at least {@code n} lines that satisfy the condition. */
  public void awaitCount(Predicate<String> condition, int n, Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    synchronized (lines) {
      long seen;
      while ((seen = lines.stream().filter(condition).count()) < n) {
        if (!process.isAlive() && !reader.isAlive()) {
          throw new AssertionError("child exited after " + seen + " of " + n + " awaited lines; see its log");
        }
        long left = Duration.between(Instant.now(), deadline).toMillis();
        if (left <= 0) {
          throw new AssertionError("only " + seen + " of " + n + " awaited lines before the deadline");
        }
        lines.wait(Math.min(left, 500));
      }
    }
  }

  /** Sends SIGKILL with the kill command and waits for the process and its output to end. */
  public void kill9() throws IOException, InterruptedException {
    Process k = new ProcessBuilder("kill", "-9", Long.toString(process.pid())).inheritIO().start();
    if (k.waitFor() != 0) {
      throw new IOException("kill -9 " + process.pid() + " failed");
    }
    process.waitFor();
    reader.join(Duration.ofSeconds(30).toMillis());
  }

  /** Every line the child printed so far. */
  public List<String> lines() {
    synchronized (lines) {
      return new ArrayList<>(lines);
    }
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Waits for the child to exit by itself; returns its exit status. */
  public int waitFor(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      throw new AssertionError("child did not exit within " + timeout + "; last lines: " + tail());
    }
    reader.join(Duration.ofSeconds(30).toMillis());
    return process.exitValue();
  }

  private String tail() {
    return lines.subList(Math.max(0, lines.size() - 5), lines.size()).toString();
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
