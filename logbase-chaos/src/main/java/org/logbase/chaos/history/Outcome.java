package org.logbase.chaos.history;

/** What a client knows about how a transaction ended. */
public enum Outcome {
  /** Committed: the commit was acknowledged. */
  OK,
  /** Certainly not committed: refused before anything could have been decided (a conflict, an abort). */
  FAIL,
  /** Unknown: the client crashed, or lost the connection while committing; it may have committed. */
  INFO
}
