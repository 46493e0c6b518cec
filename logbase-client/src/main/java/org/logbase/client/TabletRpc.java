package org.logbase.client;

import org.logbase.common.rpc.ChannelPool;
import io.grpc.Channel;
import io.grpc.Deadline;
import io.grpc.StatusRuntimeException;
import org.logbase.common.Bytes;
import org.logbase.common.NotServingTabletException;
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

  TabletRpc(LocationCache locations, ChannelPool connections, Retrier retrier, ClientSettings settings) {
    this.locations = locations;
    this.connections = connections;
    this.retrier = retrier;
    this.settings = settings;
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
      try {
        return call.run(TabletServiceGrpc.newBlockingStub(channel(tablet)).withDeadline(deadline), ref(table, tablet));
      } catch (StatusRuntimeException e) {
        throw Rpcs.failure(e, what, () -> locations.invalidate(locs));
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
          : "table '" + locs.table() + "': " + tablet);
    }
    return tablet;
  }

  Channel channel(TabletInfo tablet) {
    return connections.channel(tablet.address());
  }

  static TabletRef ref(String table, TabletInfo tablet) {
    return TabletRef.newBuilder().setTable(table).setTabletId(tablet.tabletId()).build();
  }
}
