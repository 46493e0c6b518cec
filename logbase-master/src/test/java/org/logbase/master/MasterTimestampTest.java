package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.TimestampRequests;
import org.logbase.rpc.TimestampRequest;
import org.logbase.testing.Await;

/**
 * The timestamp oracle as clients see it: GetTimestamps on real masters over gRPC, with the bound
 * in a real ZooKeeper, through failovers.
 */
class MasterTimestampTest {
  @RegisterExtension static final ZooKeeperExtension ZK = new ZooKeeperExtension();
  private MasterTestCluster cluster;

  @BeforeEach
  void newCluster() {
    cluster = new MasterTestCluster(ZK.server());
  }

  @AfterEach
  void closeCluster() throws Exception {
    cluster.close();
  }

  @Test
  void theStandbyRefusesAndTheActiveMasterChecksTheCount() throws Exception {
    MasterTestCluster.Pair pair = cluster.startActiveAndStandby();
    MasterServer active = pair.active();
    MasterServer standby = pair.standby();

    // The standby always refuses; it names the active master once its view of the active-master
    // znode (a ZooKeeper watch, asynchronous) has caught up.
    Await.until("the standby's refusal names the active master", () -> {
      NotActiveMasterException refused = assertThrows(NotActiveMasterException.class,
          () -> cluster.admin(standby).call(s -> s.getTimestamps(request(1))));
      return refused.getMessage().contains(active.address());
    });

    MasterAdmin admin = cluster.admin(active);
    assertThrows(InvalidRequestException.class, () -> admin.call(s -> s.getTimestamps(request(0))));
    assertThrows(InvalidRequestException.class,
        () -> admin.call(s -> s.getTimestamps(request(TimestampRequests.MAX_COUNT + 1))));
    Range most = Range.of(admin.call(s -> s.getTimestamps(request(TimestampRequests.MAX_COUNT))));
    assertEquals(TimestampRequests.MAX_COUNT, most.count());
    Range next = Range.of(admin.call(s -> s.getTimestamps(request(1))));
    assertTrue(next.first() > most.last());
  }

  @Test
  void eightConcurrentCallersGetIncreasingDisjointRangesBelowThePersistedBound() throws Exception {
    MasterServer master = cluster.startMaster();
    cluster.awaitActive(master);
    List<List<Range>> taken = TimestampTakers.start(cluster.admin(master), 8, 5000).awaitRanges(8 * 500).stop();

    taken.forEach(Range::assertIncreasing);
    Range.assertDisjoint(taken);
    // The bound only grows, so every timestamp must be below the bound as it is now.
    long bound = persistedBound();
    assertTrue(Range.highest(taken) < bound, "highest " + Range.highest(taken) + " vs. bound " + bound);
  }

  @Test
  void timestampsIncreaseAcrossAFailoverWhenTheActiveMasterCloses() throws Exception {
    MasterTestCluster.Pair pair = cluster.startActiveAndStandby();
    MasterServer first = pair.active();
    MasterServer second = pair.standby();
    TimestampTakers before = TimestampTakers.start(cluster.admin(first), 4, 100).awaitRanges(200);

    first.close(); // while the takers are still asking
    assertFailoverKeepsOrder(before.awaitEnd(), second);
  }

  @Test
  void timestampsIncreaseAcrossAFailoverWhenTheActiveMastersSessionExpires() throws Exception {
    MasterTestCluster.Pair pair = cluster.startActiveAndStandby();
    MasterServer first = pair.active();
    MasterServer second = pair.standby();
    TimestampTakers before = TimestampTakers.start(cluster.admin(first), 4, 100).awaitRanges(200);

    cluster.expireSession(first);
    assertEquals(1, first.awaitExit(), "a master that lost its session exits non-zero");
    assertFailoverKeepsOrder(before.awaitEnd(), second);
  }

  @Test
  void aNewMasterWithItsClockAnHourBehindStartsAboveThePersistedBound() throws Exception {
    long hour = TimeUnit.HOURS.toMillis(1);
    MasterServer first = cluster.startMaster();
    cluster.awaitActive(first);
    MasterServer behind = cluster.startMaster(() -> System.currentTimeMillis() - hour);
    List<List<Range>> before = TimestampTakers.start(cluster.admin(first), 2, 100).awaitRanges(100).stop();
    long boundBeforeFailover = persistedBound();

    first.close();
    cluster.awaitActive(behind);
    Range after = Range.of(cluster.admin(behind).call(s -> s.getTimestamps(request(10))));

    assertTrue(after.first() > boundBeforeFailover, "starts above the bound the previous master persisted");
    assertTrue(after.first() > Range.highest(before));
    assertTrue(HybridTimestamp.wallMillis(after.first()) > System.currentTimeMillis() - hour / 2,
        "follows the bound, not its own clock: " + HybridTimestamp.toString(after.first()));
  }

  @Test
  void aRequestThatMustWaitForABoundRenewalIsAnsweredOnceItIsRenewed() throws Exception {
    java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong(System.currentTimeMillis());
    MasterServer master = cluster.startMaster(clock::get);
    cluster.awaitActive(master);
    MasterAdmin admin = cluster.admin(master);
    Range before = Range.of(admin.call(s -> s.getTimestamps(request(1))));
    long boundBefore = persistedBound();

    // Past the persisted bound: the network thread cannot answer from memory, the call must wait
    // elsewhere for the renewal (a call left unanswered would fail on the 30 s deadline).
    long jumped = clock.addAndGet(TimeUnit.HOURS.toMillis(1));
    Range after = Range.of(admin.call(s -> s.getTimestamps(request(5))));

    assertEquals(5, after.count());
    assertTrue(after.first() > before.last());
    assertTrue(after.first() > boundBefore, "waited for a new bound");
    assertTrue(after.first() >= HybridTimestamp.of(jumped, 0), HybridTimestamp.toString(after.first()));
    assertTrue(after.last() < persistedBound());
  }

  /** Every timestamp the new master hands out is above every one the old master handed out. */
  private void assertFailoverKeepsOrder(List<List<Range>> before, MasterServer successor) throws Exception {
    cluster.awaitActive(successor);
    List<List<Range>> after = TimestampTakers.start(cluster.admin(successor), 4, 100).awaitRanges(200).stop();

    before.forEach(Range::assertIncreasing);
    after.forEach(Range::assertIncreasing);
    assertTrue(Range.lowest(after) > Range.highest(before),
        "after the failover " + Range.lowest(after) + ", before it up to " + Range.highest(before));
  }

  private long persistedBound() throws Exception {
    return Long.parseLong(new String(cluster.zk().getData().forPath(cluster.paths().timestampBound()),
        StandardCharsets.UTF_8));
  }

  private static TimestampRequest request(int count) {
    return TimestampRequest.newBuilder().setCount(count).build();
  }
}
