package org.logbase.tpcw.driver;

import java.util.concurrent.atomic.LongAdder;

/**
 * What happened to one kind of interaction during the measured part of a run: completed
 * interactions and their latencies (the whole interaction, retries included), conflicts (commits
 * refused by first-committer-wins, then retried), aborts (transactions aborted otherwise, retried),
 * interactions given up after the last attempt, and errors (anything else; the run then exits 1).
 */
final class InteractionStats {
  final LatencyHistogram latency = new LatencyHistogram();
  final LongAdder completed = new LongAdder();
  final LongAdder conflicts = new LongAdder();
  final LongAdder aborts = new LongAdder();
  final LongAdder gaveUp = new LongAdder();
  final LongAdder errors = new LongAdder();
}
