package org.logbase.dist;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.Collection;
import org.logbase.rpc.ListLocksRequest;
import org.logbase.rpc.TabletServiceGrpc;
import org.logbase.testing.Await;

/** Reads tablet servers' row-lock tables through the ListLocks RPC. */
final class LockTables {
  private LockTables() {}

  /** Waits until no server at {@code addresses} (host:port) holds a row lock. */
  static void awaitEmpty(Collection<String> addresses, Duration max) {
    for (String address : addresses) {
      ManagedChannel ch = NettyChannelBuilder.forTarget(address).usePlaintext().build();
      try {
        TabletServiceGrpc.TabletServiceBlockingStub stub = TabletServiceGrpc.newBlockingStub(ch);
        Await.until(max, "no lock left on " + address,
            () -> stub.listLocks(ListLocksRequest.getDefaultInstance()).getLocksList().isEmpty());
      } finally {
        ch.shutdownNow();
      }
    }
  }
}
