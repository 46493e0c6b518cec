package org.logbase.client;

/** How far a write is persisted before it is acknowledged. */
public enum Durability {
  /** In the memory of every replica of the log (HDFS hflush): survives a server crash. The default. */
  HFLUSH(org.logbase.rpc.Durability.HFLUSH),
  /** On disk on every replica (HDFS hsync): also survives a power loss; slower. */
  HSYNC(org.logbase.rpc.Durability.HSYNC);

  private final org.logbase.rpc.Durability wire;

  Durability(org.logbase.rpc.Durability wire) {
    this.wire = wire;
  }

  org.logbase.rpc.Durability toProto() {
    return wire;
  }
}
