package org.logbase.log;

/** How far a write must get before it is acknowledged. */
public enum Durability {
  /** Flushed to every HDFS replica's memory (HBase's default); survives process crashes. */
  HFLUSH,
  /** Forced to disk on every replica; survives power loss, costs a disk sync per batch. */
  HSYNC
}
