package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;

/** How an admin command waits for its servers' opens and closes ({@link TabletCommands#awaitWhileLive}). */
class TabletCommandsWaitTest {

  @Test
  void aServerNoLongerLiveIsNotWaitedFor() throws Exception {
    CompletableFuture<Void> never = new CompletableFuture<>();
    long start = System.nanoTime();
    TabletCommands.awaitWhileLive(Map.of("ts1", never), Duration.ofSeconds(30), Set::of);
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "returned without waiting out 30 s");
    assertFalse(never.isDone());
  }

  /**
   * ZooKeeper not reached while the command waits (the table is already written): the wait goes on
   * for everyone, rather than failing a command that succeeded.
   */
  @Test
  void liveServersThatCannotBeReadForTheMomentAreWaitedForAsIfLive() throws Exception {
    CompletableFuture<Void> open = new CompletableFuture<>();
    CompletableFuture.delayedExecutor(600, TimeUnit.MILLISECONDS).execute(() -> open.complete(null));
    TabletCommands.awaitWhileLive(Map.of("ts1", open), Duration.ofSeconds(30), () -> {
      throw new KeeperException.ConnectionLossException();
    });
    assertTrue(open.isDone(), "waited for the open to finish");
  }
}
