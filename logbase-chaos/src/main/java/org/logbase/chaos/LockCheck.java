package org.logbase.chaos;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ServerInfo;
import org.logbase.rpc.ListLocksRequest;
import org.logbase.rpc.LockInfo;
import org.logbase.rpc.TabletServiceGrpc;

/** Reads every live tablet server's row locks (the ListLocks RPC). */
final class LockCheck {
  private LockCheck() {}

  /** The locks held now, one line each, naming server, table, transaction and age. */
  static List<String> heldLocks(LogBaseClient client) {
    List<String> out = new ArrayList<>();
    for (ServerInfo s : client.admin().clusterStatus().servers()) {
      if (!s.live()) {
        continue;
      }
      ManagedChannel ch = NettyChannelBuilder.forTarget(s.address()).usePlaintext().build();
      try {
        for (LockInfo l : TabletServiceGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
            .listLocks(ListLocksRequest.getDefaultInstance()).getLocksList()) {
          out.add(s.serverId() + ": " + l.getTable() + "/" + l.getKey().toStringUtf8() + " held by transaction "
              + l.getTxn() + (l.getPrepared() ? " (prepared)" : "") + " for " + l.getHeldMs() + " ms");
        }
      } finally {
        ch.shutdownNow();
      }
    }
    return out;
  }
}
