package org.logbase.tabletserver.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;

import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.log.Durability;
import org.logbase.rpc.GetRequest;
import org.logbase.rpc.GetResponse;
import org.logbase.rpc.TabletRef;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.Await;
import org.logbase.testing.TestTables;
import org.logbase.txn.LocalLockManager;
import org.logbase.txn.RowWrite;
import org.logbase.txn.TxnManager;
import org.logbase.txn.TxnSettings;

/**
 * A snapshot read that waits for a committing writer must see that writer's version even when a
 * compaction switched the tablet to new indexes during the wait: the writer installs its version
 * in the new indexes only. Found by the chaos run's counter (two transactions both told they
 * committed the same increment): the read returned the old value, and validation, which looks at
 * the tablet as served now, found nothing newer than the reader's snapshot to refuse.
 */
class GetAfterSwitchTest {
  static final TabletDescriptor USERS = TestTables.whole(TestTables.USERS);
  static final byte[] KEY = utf8("counter");
  @TempDir Path dir;
  StorageEngine engine;
  TxnManager txns;
  ServedTablets tablets;
  OpenScans scans;
  TabletServiceImpl service;

  @BeforeEach
  void open() throws Exception {
    engine = StorageEngine.open(EngineOptions.of(dir.toUri(), Config.empty(), List.of()));
    // A long lock TTL: the reader must wait for the writer, never resolve it as in doubt.
    txns = new TxnManager(engine, new LocalLockManager(), engine.clock(),
        (table, key) -> engine.registry().snapshot().findByKey(table, key),
        (txn, table, key) -> {
          throw new AssertionError("no other server");
        }, new TxnSettings(600_000, 600_000, true, true));
    tablets = new ServedTablets(engine, asked -> asked);
    assertEquals(List.of(), tablets.open(List.of(TabletCloserTest.openOf(USERS, 1))).get(30, TimeUnit.SECONDS));
    scans = new OpenScans(id -> true, Config.empty());
    service = new TabletServiceImpl(tablets, txns, new WritePathStats(), new Calls(() -> { }), scans, 1 << 20);
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {scans, tablets, txns, engine}) {
      if (c != null) {
        c.close();
      }
    }
  }

  @Test
  void aReadThatWaitedForAWriterAcrossACompactionSeesItsVersion() throws Exception {
    Tablet t = engine.tabletOrNull(USERS.id());
    txns.put(t, KEY, Map.of("name", utf8("1")), Durability.HFLUSH);
    // A transaction prepares the row (its lock stays until the decision) and takes its commit
    // timestamp; a reader then begins above it and must wait for it.
    long txn = engine.clock().next();
    txns.prepare(txn, List.of(RowWrite.put(t, KEY, Map.of("name", utf8("2")))), "users", KEY, Durability.HFLUSH)
        .get(30, TimeUnit.SECONDS);
    long commitTs = engine.clock().next();
    long snapshot = engine.clock().next();
    CompletableFuture<GetResponse> read = new CompletableFuture<>();
    Thread reader = new Thread(() -> service.get(GetRequest.newBuilder()
        .setTablet(TabletRef.newBuilder().setTable("users").setTableId(USERS.schema().id()).setTabletId(0))
        .setKey(ByteString.copyFrom(KEY)).setAsOf(snapshot).build(), observer(read)), "reader");
    reader.start();
    Await.until(Duration.ofSeconds(30), "the read waits for the prepared writer",
        () -> reader.getState() == Thread.State.TIMED_WAITING || read.isDone());
    assertTrue(!read.isDone(), "the read did not wait for the prepared writer: " + read);

    engine.compact(USERS.id()); // switches the tablet to new indexes while the read waits
    txns.decide(txn, true, commitTs, "users", KEY, true, Durability.HFLUSH).get(30, TimeUnit.SECONDS);

    GetResponse r = read.get(30, TimeUnit.SECONDS);
    assertTrue(r.getFound());
    assertEquals("2", value(r), "the read at " + snapshot + " missed the version committed at " + commitTs);
  }

  private static String value(GetResponse r) {
    return r.getRow().getCellsList().stream().filter(c -> c.getColumn().equals("name")).findFirst()
        .map(c -> c.getValue().toString(StandardCharsets.UTF_8)).orElse(null);
  }

  private static StreamObserver<GetResponse> observer(CompletableFuture<GetResponse> into) {
    return new StreamObserver<>() {
      @Override
      public void onNext(GetResponse value) {
        into.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        into.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
      }
    };
  }
}
