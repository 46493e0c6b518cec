package org.logbase.tabletserver.server;

import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.logbase.common.Threads;
import org.logbase.common.ZkPaths;
import org.logbase.common.rpc.ChannelPool;
import org.logbase.rpc.HeartbeatRequest;
import org.logbase.rpc.HeartbeatResponse;
import org.logbase.rpc.MasterServiceGrpc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports this server's load and tablets to the active master at a fixed interval. The master
 * uses the report to (re)send tablets assigned here but not served, e.g. after a restart.
 */
final class Heartbeater implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Heartbeater.class);

  private final CuratorFramework zk;
  private final ZkPaths paths;
  private final String id;
  private final String address;
  private final Supplier<HeartbeatRequest.Builder> report;
  private final LongConsumer heldSnapshots;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("heartbeat"));
  private final ChannelPool channels = new ChannelPool(4 << 20);
  private String masterAddress;
  private boolean warned;

  /** @param heldSnapshots told the oldest snapshot clients hold, from each answer */
  Heartbeater(CuratorFramework zk, ZkPaths paths, String id, String address, Supplier<HeartbeatRequest.Builder> report,
      LongConsumer heldSnapshots) {
    this.heldSnapshots = heldSnapshots;
    this.zk = zk;
    this.paths = paths;
    this.id = id;
    this.address = address;
    this.report = report;
  }

  void start(long intervalMs) {
    timer.scheduleWithFixedDelay(this::beat, 0, intervalMs, TimeUnit.MILLISECONDS);
  }

  private void beat() {
    try {
      masterAddress = new String(zk.getData().forPath(paths.activeMaster()), StandardCharsets.UTF_8);
      HeartbeatResponse answer = MasterServiceGrpc.newBlockingStub(channels.channel(masterAddress))
          .withDeadlineAfter(5, TimeUnit.SECONDS).heartbeat(report.get().setServerId(id).setAddress(address).build());
      heldSnapshots.accept(answer.getOldestSnapshot());
      warned = false;
    } catch (KeeperException.NoNodeException e) {
      warnOnce("no active master yet");
    } catch (StatusRuntimeException e) {
      warnOnce("heartbeat to master " + masterAddress + " failed: " + e.getStatus());
    } catch (Exception e) {
      warnOnce("heartbeat failed: " + e);
    }
  }

  /** One warning per outage, not one per interval. */
  private void warnOnce(String what) {
    if (!warned) {
      LOG.warn("{} (will keep trying)", what);
      warned = true;
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    channels.close();
  }
}
