package org.logbase.tabletserver.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;

import com.google.protobuf.ByteString;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.TabletSpec;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.Await;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;

/**
 * The close of a dropped table on a storage engine of its own: the opens of its tablets under way
 * when the drop is heard of are waited for and their tablets closed, and no later open of any of
 * its tablets is admitted, whatever its assignment.
 */
class TabletCloserTest {
  static final TabletDescriptor USERS = TestTables.whole(TestTables.USERS);
  @TempDir Path dir;
  StorageEngine engine;
  TxnManager txns;
  ServedTablets tablets;
  /** The assignment check of the next batch to open signals here, then waits for {@link #proceed}. */
  final CountDownLatch checking = new CountDownLatch(1);
  final CountDownLatch proceed = new CountDownLatch(1);

  @BeforeEach
  void open() throws Exception {
    engine = StorageEngine.open(EngineOptions.of(dir.toUri(), Config.empty(), List.of()));
    txns = TxnManager.standalone(engine);
    tablets = new ServedTablets(engine, asked -> {
      checking.countDown();
      try {
        if (!proceed.await(60, TimeUnit.SECONDS)) {
          throw new AssertionError("the test never let the open proceed");
        }
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
      return asked;
    });
  }

  @AfterEach
  void close() throws Exception {
    proceed.countDown();
    if (tablets != null) {
      tablets.close();
    }
    if (txns != null) {
      txns.close();
    }
    if (engine != null) {
      engine.close();
    }
  }

  static OpenTabletRequest openOf(TabletDescriptor d, long assignment) {
    TabletSpec.Builder tablet = TabletSpec.newBuilder().setTabletId(d.tabletId());
    if (d.startKey() != null) {
      tablet.setStartKey(ByteString.copyFrom(d.startKey()));
    }
    if (d.endKey() != null) {
      tablet.setEndKey(ByteString.copyFrom(d.endKey()));
    }
    return OpenTabletRequest.newBuilder().setTable(SchemaProtos.toProto(d.schema())).setTablet(tablet)
        .setAssignment(assignment).build();
  }

  /**
   * The drop is heard of while an open of the table's tablet is between its admission and serving:
   * nothing of the table serves yet, so a close of what is served would close nothing, and the open
   * would then serve the dropped tablet. The close waits for the open and closes the tablet.
   */
  @Test
  void aTabletAnOpenUnderWayServesIsClosedWithItsDroppedTable() throws Exception {
    TabletCloser closer = new TabletCloser(tablets, txns, 30_000);
    CompletableFuture<List<TabletDescriptor>> opening = tablets.open(List.of(openOf(USERS, 3)));
    assertTrue(checking.await(30, TimeUnit.SECONDS), "the open reached its assignment check");
    CompletableFuture<Boolean> dropping = new CompletableFuture<>();
    Thread dropper = new Thread(() -> {
      try {
        dropping.complete(closer.closeDropped(USERS.schema().id()));
      } catch (Throwable e) {
        dropping.completeExceptionally(e);
      }
    }, "dropper");
    dropper.start();
    // It must wait for the open: a close of what is served now would be done, having closed nothing.
    Await.until(Duration.ofSeconds(30), "the drop's close waits or ends",
        () -> dropping.isDone() || dropper.getState() == Thread.State.TIMED_WAITING);
    assertFalse(dropping.isDone(), "the drop's close did not wait for the open under way");
    proceed.countDown();
    assertEquals(List.of(), opening.get(30, TimeUnit.SECONDS), "the open admitted before the drop was carried out");
    assertTrue(dropping.get(30, TimeUnit.SECONDS), "the drop's close waited for every open of the table's tablets");
    assertNull(tablets.findServed("users", 0), "the tablet the open served is closed");
  }

  /**
   * An open still under way after the close's wait: the close says so (the server's watch then
   * closes the table again later), and the next close, after the open served, closes the tablet.
   */
  @Test
  void aCloseThatOutwaitsAnOpenSaysSoAndTheNextClosesWhatItOpened() throws Exception {
    TabletCloser closer = new TabletCloser(tablets, txns, 100);
    CompletableFuture<List<TabletDescriptor>> opening = tablets.open(List.of(openOf(USERS, 3)));
    assertTrue(checking.await(30, TimeUnit.SECONDS), "the open reached its assignment check");
    assertFalse(closer.closeDropped(USERS.schema().id()), "the open is still under way");
    proceed.countDown();
    assertEquals(List.of(), opening.get(30, TimeUnit.SECONDS));
    assertTrue(tablets.serves(USERS.id()), "the open admitted before the drop served the tablet");
    assertTrue(closer.closeDropped(USERS.schema().id()));
    assertFalse(tablets.serves(USERS.id()), "the next close closed it");
  }

  /**
   * A tablet served when the drop is heard of is closed at once, not after the wait for an open of
   * another of the table's tablets: until then it took writes that were lost with the table.
   */
  @Test
  void aServedTabletIsClosedAtOnceWhileAnOpenOfAnotherIsUnderWay() throws Exception {
    TabletDescriptor left = new TabletDescriptor(USERS.schema(), 1, null, utf8("m"));
    TabletDescriptor right = new TabletDescriptor(USERS.schema(), 2, utf8("m"), null);
    CountDownLatch rightChecking = new CountDownLatch(1);
    CountDownLatch rightProceed = new CountDownLatch(1);
    try (ServedTablets served = new ServedTablets(engine, asked -> {
      if (asked.stream().anyMatch(a -> a.tablet().tabletId() == right.tabletId())) {
        rightChecking.countDown();
        try {
          if (!rightProceed.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the test never let the open proceed");
          }
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
      }
      return asked;
    })) {
      TabletCloser closer = new TabletCloser(served, txns, 30_000);
      assertEquals(List.of(), served.open(List.of(openOf(left, 1))).get(30, TimeUnit.SECONDS));
      CompletableFuture<List<TabletDescriptor>> opening = served.open(List.of(openOf(right, 1)));
      assertTrue(rightChecking.await(30, TimeUnit.SECONDS), "the open of the other tablet reached its check");
      CompletableFuture<Boolean> dropping = CompletableFuture.supplyAsync(() -> {
        try {
          return closer.closeDropped(USERS.schema().id());
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
      });
      Await.until(Duration.ofSeconds(30), "the served tablet is closed while the other's open waits",
          () -> !served.serves(left.id()));
      assertFalse(dropping.isDone(), "the close still waits for the open under way");
      rightProceed.countDown();
      opening.get(30, TimeUnit.SECONDS);
      assertTrue(dropping.get(30, TimeUnit.SECONDS));
      assertEquals(0, served.count(), "what the open served is closed too");
    } finally {
      rightProceed.countDown();
    }
  }

  /** After the drop, no open of the table's tablets serves: of any assignment, 0 included, of any tablet. */
  @Test
  void noOpenOfADroppedTablesTabletIsAdmitted() throws Exception {
    proceed.countDown();
    TabletCloser closer = new TabletCloser(tablets, txns, 30_000);
    assertEquals(List.of(), tablets.open(List.of(openOf(USERS, 1))).get(30, TimeUnit.SECONDS));
    assertTrue(closer.closeDropped(USERS.schema().id()));
    assertEquals(0, tablets.count(), "its tablet closed");
    TabletDescriptor other = new TabletDescriptor(USERS.schema(), 7, null, null);
    for (long assignment : new long[] {0, 1, 2}) {
      List<TabletDescriptor> leftOut = tablets.open(List.of(openOf(USERS, assignment), openOf(other, assignment)))
          .get(30, TimeUnit.SECONDS);
      assertEquals(List.of(USERS.id(), other.id()), leftOut.stream().map(TabletDescriptor::id).toList(),
          "opens of assignment " + assignment + " are left out");
    }
    assertFalse(tablets.serves(USERS.id()));
    assertEquals(0, tablets.count());
  }
}
