package org.logbase.chaos.check;

import java.util.Locale;

/** Why one transaction must precede another in every serialization the database could claim. */
enum EdgeType {
  /** Write-write: the source installed the version of a key right before the target's. */
  WW,
  /** Write-read: the target read the version the source installed. */
  WR,
  /** Read-write anti-dependency: the source read a version the target then overwrote. */
  RW,
  /** Real time: the source was acknowledged before the target began. */
  RT;

  private static final EdgeType[] ALL = values();

  static EdgeType of(int ordinal) {
    return ALL[ordinal];
  }

  int bit() {
    return 1 << ordinal();
  }

  String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
