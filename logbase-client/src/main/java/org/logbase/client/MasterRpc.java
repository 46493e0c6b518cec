package org.logbase.client;

import org.logbase.common.rpc.ChannelPool;
import io.grpc.Deadline;
import io.grpc.StatusRuntimeException;
import java.util.function.Function;
import org.logbase.rpc.MasterServiceGrpc;
import org.logbase.rpc.MasterServiceGrpc.MasterServiceBlockingStub;

/**
 * Calls the active master, riding through failovers: when the master asked is not active or cannot
 * be reached, the address is looked up again in ZooKeeper and the call retried until the deadline.
 */
final class MasterRpc {
  private final MasterLocator locator;
  private final ChannelPool connections;
  private final Retrier retrier;

  MasterRpc(MasterLocator locator, ChannelPool connections, Retrier retrier) {
    this.locator = locator;
    this.connections = connections;
    this.retrier = retrier;
  }

  /**
   * Runs {@code call} against the active master. The call should be idempotent or harmless to
   * repeat: a request whose answer was lost in a failover is sent again.
   *
   * @param what names the operation in error messages
   */
  <T> T call(String what, Deadline deadline, Function<MasterServiceBlockingStub, T> call) {
    return retrier.run(deadline, () -> {
      String address = locator.address(deadline);
      try {
        return call.apply(MasterServiceGrpc.newBlockingStub(connections.channel(address)).withDeadline(deadline));
      } catch (StatusRuntimeException e) {
        throw Rpcs.failure(e, what, () -> locator.invalidate(address));
      }
    });
  }
}
