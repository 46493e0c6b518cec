package org.logbase.common.rpc;

import java.util.logging.Logger;

/** What a LogBase server changes in gRPC's logging (java.util.logging) before it serves. */
public final class GrpcServerLogging {
  /** The logger gRPC's Netty server transport reports failed connections to. */
  static final String CONNECTIONS = "io.grpc.netty.shaded.io.grpc.netty.NettyServerTransport.connections";
  // Held: java.util.logging keeps loggers weakly, and a collected one would lose its filter.
  private static final Logger GRPC_CONNECTIONS = Logger.getLogger(CONNECTIONS);

  private GrpcServerLogging() {}

  /** A failed connection is one line, rate-limited ({@link BadConnectionLog}); idempotent. */
  public static synchronized void install() {
    if (!(GRPC_CONNECTIONS.getFilter() instanceof BadConnectionLog)) {
      GRPC_CONNECTIONS.setFilter(new BadConnectionLog());
    }
  }

  /** Connections to this JVM's servers that failed at the transport level since {@link #install()}. */
  public static synchronized long badConnections() {
    return GRPC_CONNECTIONS.getFilter() instanceof BadConnectionLog log ? log.seen() : 0;
  }
}
