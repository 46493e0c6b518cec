package org.logbase.chaos.history;

import java.util.List;

/**
 * A list-append transaction as its client saw it.
 *
 * @param id unique in the history
 * @param process the client thread or process that ran it (one transaction at a time each)
 * @param invokeNanos when the client began it (one clock for the whole history: nanoseconds since
 *     the run started)
 * @param completeNanos when the client learnt its outcome; -1 if it never did ({@link Outcome#INFO})
 * @param mops its steps in program order; a read's list is its own view (its own earlier appends
 *     included)
 */
public record Txn(long id, int process, long invokeNanos, long completeNanos, Outcome outcome, List<Mop> mops) {
  public Txn {
    mops = List.copyOf(mops);
    if (outcome == Outcome.OK && completeNanos < invokeNanos) {
      throw new IllegalArgumentException("a committed transaction completes after it began: " + id);
    }
  }

  @Override
  public String toString() {
    return "T" + id + "(p" + process + ", " + outcome + ", " + mops + ")";
  }
}
