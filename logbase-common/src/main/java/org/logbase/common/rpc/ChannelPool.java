package org.logbase.common.rpc;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.logbase.common.LogBaseException;

/**
 * One gRPC channel per server address, shared by every call to that server: a channel multiplexes
 * concurrent calls over one HTTP/2 connection and reconnects by itself (also when its server
 * restarts on the same address). Used by clients, masters and tablet servers alike.
 */
public final class ChannelPool implements AutoCloseable {
  private final ConcurrentMap<String, ManagedChannel> channels = new ConcurrentHashMap<>();
  private final int maxInboundMessageBytes;
  private volatile boolean closed;

  public ChannelPool(int maxInboundMessageBytes) {
    this.maxInboundMessageBytes = maxInboundMessageBytes;
  }

  /** The channel to {@code hostPort} ("host:port" or "[v6]:port"). */
  public ManagedChannel channel(String hostPort) {
    if (closed) {
      throw new IllegalStateException("the channel pool is closed (its owner shut down)");
    }
    return channels.computeIfAbsent(hostPort, this::open);
  }

  /**
   * Makes the channel to {@code hostPort} (if any) try to connect at once on its next call, rather
   * than after its reconnect backoff: a server that was down for a while is reached again as soon
   * as it is back, not up to two minutes later.
   */
  public void reconnectSoon(String hostPort) {
    ManagedChannel c = channels.get(hostPort);
    if (c != null) {
      c.resetConnectBackoff();
    }
  }

  private ManagedChannel open(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0 || colon == hostPort.length() - 1) {
      throw new LogBaseException("invalid server address '" + hostPort + "' (expected host:port)");
    }
    String host = hostPort.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(hostPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new LogBaseException("invalid server address '" + hostPort + "' (expected host:port)");
    }
    return NettyChannelBuilder.forAddress(host, port)
        .usePlaintext()
        .maxInboundMessageSize(maxInboundMessageBytes)
        .build();
  }

  @Override
  public void close() {
    closed = true;
    channels.values().forEach(ManagedChannel::shutdownNow);
    for (ManagedChannel c : channels.values()) {
      try {
        c.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    channels.clear();
  }
}
