package org.logbase.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A thread that lowers its CPU priority runs at that nice value, the threads it starts afterwards
 * inherit it, and the rest of the process keeps its own (read from {@code /proc}: Linux only).
 */
class ThreadsTest {

  @Test
  void aThreadThatLowersItsPriorityRunsAtThatNiceValueAndSoDoItsChildren() throws Exception {
    assumeTrue(Files.isSymbolicLink(Path.of("/proc/thread-self")), "Linux only");
    int before = nice();
    CompletableFuture<int[]> seen = new CompletableFuture<>();
    Threads.startDaemon("lowered", () -> {
      try {
        Threads.lowerPriority(7);
        int own = nice();
        CompletableFuture<Integer> child = new CompletableFuture<>();
        Thread c = Threads.startDaemon("lowered-child", () -> {
          try {
            child.complete(nice());
          } catch (IOException e) {
            child.completeExceptionally(e);
          }
        });
        c.join();
        seen.complete(new int[] {own, child.get()});
      } catch (Exception e) {
        seen.completeExceptionally(e);
      }
    });
    int[] nice = seen.get(30, TimeUnit.SECONDS);
    assertEquals(7, nice[0], "the thread that lowered itself");
    assertEquals(7, nice[1], "a thread it started afterwards");
    assertEquals(before, nice(), "the calling thread keeps its own");
  }

  @Test
  void aNiceValueOutsideOneToNineteenIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> Threads.lowerPriority(0));
    assertThrows(IllegalArgumentException.class, () -> Threads.lowerPriority(20));
  }

  /** The calling thread's nice value: field 19 of its {@code stat}, after the command name's parenthesis. */
  private static int nice() throws IOException {
    String stat = Files.readString(Path.of("/proc/thread-self/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(f[16]); // fields from the state on: state is 3, nice is 19
  }
}
