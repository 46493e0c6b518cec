package org.logbase.client;

import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.Channel;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.logbase.common.Bytes;
import org.logbase.common.LogBaseException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.ServerUnresponsiveException;
import org.logbase.common.rpc.ChannelPool;
import org.logbase.rpc.Mutation;
import org.logbase.rpc.TabletRef;
import org.logbase.rpc.TabletServiceGrpc;
import org.logbase.rpc.TabletServiceGrpc.TabletServiceBlockingStub;

/**
 * Routes requests to the tablet server holding a key. When a server does not serve the tablet any
 * more or cannot be reached, the table's cached locations are dropped and the request retried with
 * fresh ones from the master, with backoff, until the deadline; other errors surface at once.
 */
final class TabletRpc {
  /** One request to the tablet {@code ref} through {@code stub}. */
  @FunctionalInterface
  interface Call<T> {
    T run(TabletServiceBlockingStub stub, TabletRef ref);
  }

  private final LocationCache locations;
  private final ChannelPool connections;
  private final Retrier retrier;
  private final ClientSettings settings;
  private final WriteStats writeStats = new WriteStats();
  private final WriteCoalescer writes;

  TabletRpc(LocationCache locations, ChannelPool connections, Retrier retrier, ClientSettings settings) {
    this.locations = locations;
    this.connections = connections;
    this.retrier = retrier;
    this.settings = settings;
    this.writes = new WriteCoalescer(
        // The answer is handled on the network thread (settling futures, sending the next batch never
        // blocks): one thread hand-off less per request than gRPC's default executor.
        // A batch carries other callers' writes: it is started outside the sender's gRPC context.
        writeStats.timing((route, request, deadline) -> DetachedCalls.start(
            () -> TabletServiceGrpc.newFutureStub(connections.channel(route.address()))
                .withExecutor(MoreExecutors.directExecutor()).withDeadline(deadline).batchMutate(request))),
        settings.writeCoalesce(), settings.writeInFlightPerTablet(), settings.writeBatchMaxRows(),
        // Half the message limit: room for the request's own framing, and for the answer's.
        settings.maxMessageBytes() / 2);
  }

  /** Counts and timings of the write requests sent (published over JMX by the client). */
  WriteStats writeStats() {
    return writeStats;
  }

  ClientSettings settings() {
    return settings;
  }

  Retrier retrier() {
    return retrier;
  }

  LocationCache locations() {
    return locations;
  }

  /** Sends {@code call} to the tablet of {@code table} holding {@code key}. */
  <T> T call(String table, byte[] key, String what, Call<T> call) {
    Deadline deadline = settings.newDeadline();
    return retrier.run(deadline, () -> {
      TableLocations locs = locations.get(table, deadline);
      TabletInfo tablet = serving(locs, key);
      Deadline attempt = settings.attemptDeadline(deadline);
      try {
        return call.run(TabletServiceGrpc.newBlockingStub(channel(tablet)).withDeadline(attempt), ref(table, tablet));
      } catch (StatusRuntimeException e) {
        throw failure(e, what, locs, tablet, deadline);
      }
    });
  }

  /**
   * Writes one row of {@code table} (a put or a tombstone), together with other threads' writes to
   * the same tablet when they coincide (see {@link WriteCoalescer}), retrying like {@link #call}.
   *
   * @return the write's commit timestamp
   */
  long write(String table, byte[] key, String what, Mutation mutation, Durability durability) {
    Deadline deadline = settings.newDeadline();
    return retrier.run(deadline, () -> {
      TableLocations locs = locations.get(table, deadline);
      TabletInfo tablet = serving(locs, key);
      try {
        return writes.write(new WriteCoalescer.Route(tablet.address(), ref(table, tablet)), mutation, durability,
            settings.attemptDeadline(deadline));
      } catch (StatusRuntimeException e) {
        throw failure(e, what, locs, tablet, deadline);
      }
    });
  }

  /**
   * The tablet holding {@code key} if a live server serves it; otherwise drops {@code locs} and
   * throws the retriable {@link NotServingTabletException}.
   */
  TabletInfo serving(TableLocations locs, byte[] key) {
    TabletInfo tablet = locs.find(key);
    if (tablet == null || !tablet.hasServer()) {
      locations.invalidate(locs);
      throw new NotServingTabletException(tablet == null
          ? "no tablet of table '" + locs.table() + "' is known to hold key " + Bytes.toStringBinary(key)
          : "table '" + locs.table() + "': " + tablet + " (its server is not live: the master moves its tablets to live servers)");
    }
    return tablet;
  }

  /**
   * The typed failure of one attempt. An attempt cut short by its own timeout while the operation
   * has time left is {@link ServerUnresponsiveException}, retried at the tablet's location looked
   * up again.
   */
  private LogBaseException failure(StatusRuntimeException e, String what, TableLocations locs, TabletInfo tablet,
      Deadline operation) {
    if (e.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED && !operation.isExpired()) {
      forget(locs, tablet);
      ServerUnresponsiveException ex = new ServerUnresponsiveException(what + " (" + tablet + "): server "
          + tablet.address() + " did not answer within " + settings.attemptTimeoutMs() + " ms");
      ex.initCause(e);
      return ex;
    }
    return Rpcs.failure(e, what + " (" + tablet + ")", () -> forget(locs, tablet));
  }

  /** After a retriable failure: the locations are asked for again, and the server's channel reconnects without delay. */
  void forget(TableLocations locs, TabletInfo tablet) {
    locations.invalidate(locs);
    connections.reconnectSoon(tablet.address());
  }

  /**
   * After a server was not reached: the tables with a tablet there are looked up again (the others
   * keep their locations), and its channel reconnects without delay.
   */
  void forgetServer(String address) {
    locations.forgetServer(address);
    connections.reconnectSoon(address);
  }

  Channel channel(TabletInfo tablet) {
    return connections.channel(tablet.address());
  }

  /** The tablet a request names: by its table's name and, where known, id. */
  static TabletRef ref(String table, TabletInfo tablet) {
    return TabletRef.newBuilder().setTable(table).setTabletId(tablet.tabletId()).setTableId(tablet.tableId()).build();
  }
}
