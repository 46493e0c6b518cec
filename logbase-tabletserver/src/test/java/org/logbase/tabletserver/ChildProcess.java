package org.logbase.tabletserver;

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
import org.logbase.tabletserver.demo.Ack;

/**
 * A child JVM on this JVM's classpath whose stdout is recorded line by line in this process, so its
 * acknowledgements outlive it; killed with a real {@code kill -9}.
 */
final class ChildProcess implements AutoCloseable {
  private final Process process;
  private final List<String> lines = new ArrayList<>();
  private final Thread reader;

  ChildProcess(Class<?> main, File log, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(
        ProcessHandle.current().info().command().orElse("java"), "-Xmx256m", "-cp",
        System.getProperty("java.class.path"), main.getName()));
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
  String await(Predicate<String> condition, Duration timeout) throws InterruptedException {
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

  /** Waits until the child printed at least n acknowledgements. */
  void awaitAcks(int n, Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    synchronized (lines) {
      while (acks().size() < n) {
        if (!process.isAlive() && !reader.isAlive()) {
          throw new AssertionError("child exited before " + n + " acknowledgements; see its log");
        }
        long left = Duration.between(Instant.now(), deadline).toMillis();
        if (left <= 0) {
          throw new AssertionError("only " + acks().size() + " acknowledgements before the deadline");
        }
        lines.wait(Math.min(left, 500));
      }
    }
  }

  /** Sends SIGKILL with the kill command and waits for the process and its output to end. */
  void kill9() throws IOException, InterruptedException {
    Process k = new ProcessBuilder("kill", "-9", Long.toString(process.pid())).inheritIO().start();
    if (k.waitFor() != 0) {
      throw new IOException("kill -9 " + process.pid() + " failed");
    }
    process.waitFor();
    reader.join(Duration.ofSeconds(30).toMillis());
  }

  List<Ack> acks() {
    synchronized (lines) {
      List<Ack> out = new ArrayList<>();
      for (String l : lines) {
        Ack a = Ack.parse(l);
        if (a != null) {
          out.add(a);
        }
      }
      return out;
    }
  }

  private String tail() {
    return lines.subList(Math.max(0, lines.size() - 5), lines.size()).toString();
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
