package org.logbase.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.logbase.shell.CommandWorker.CancelResult;

/** Ctrl-C's effect on the running command: interrupted, except where it must run to its end. */
@Timeout(30)
class CommandWorkerTest {
  private final CommandWorker worker = new CommandWorker();

  @AfterEach
  void close() {
    worker.close();
  }

  @Test
  void aCancelInterruptsTheRunningCommandAndTheNextOneRunsNormally() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CompletableFuture<String> outcome = CompletableFuture.supplyAsync(() -> worker.run(() -> {
      started.countDown();
      try {
        new CountDownLatch(1).await(); // a command blocked on the network, say
        return "not cancelled";
      } catch (InterruptedException e) {
        return "interrupted, requested=" + worker.requested();
      }
    }));
    assertTrue(started.await(10, TimeUnit.SECONDS));
    assertEquals(CancelResult.CANCELLING, worker.cancel());
    assertEquals("interrupted, requested=true", outcome.get(10, TimeUnit.SECONDS));

    assertEquals(CancelResult.NOTHING_RUNNING, worker.cancel());
    assertEquals("interrupted=false, requested=false",
        worker.run(() -> "interrupted=" + Thread.currentThread().isInterrupted() + ", requested=" + worker.requested()));
  }

  @Test
  void anUninterruptibleSectionRunsToItsEnd() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch cancelled = new CountDownLatch(1);
    CompletableFuture<String> outcome = CompletableFuture.supplyAsync(() -> worker.run(
        () -> worker.uninterruptibly(() -> {
          inside.countDown();
          try {
            assertTrue(cancelled.await(10, TimeUnit.SECONDS));
            return "ran to its end, interrupted=" + Thread.currentThread().isInterrupted();
          } catch (InterruptedException e) {
            return "interrupted";
          }
        })));
    assertTrue(inside.await(10, TimeUnit.SECONDS));
    assertEquals(CancelResult.CANNOT_CANCEL, worker.cancel());
    assertFalse(worker.requested());
    cancelled.countDown();
    assertEquals("ran to its end, interrupted=false", outcome.get(10, TimeUnit.SECONDS));
  }

  @Test
  void aCancelBeforeAnUninterruptibleSectionSkipsIt() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch cancelled = new CountDownLatch(1);
    boolean[] sectionRan = {false};
    CompletableFuture<String> outcome = CompletableFuture.supplyAsync(() -> worker.run(() -> {
      started.countDown();
      try {
        cancelled.await();
      } catch (InterruptedException e) {
        // the cancel; the command goes on to its section regardless
      }
      ShellException e = assertThrows(ShellException.class, () -> worker.uninterruptibly(() -> sectionRan[0] = true));
      return e.getMessage();
    }));
    assertTrue(started.await(10, TimeUnit.SECONDS));
    worker.cancel();
    cancelled.countDown();
    assertEquals("cancelled", outcome.get(10, TimeUnit.SECONDS));
    assertFalse(sectionRan[0]);
  }
}
