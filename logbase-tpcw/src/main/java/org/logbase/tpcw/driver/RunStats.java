package org.logbase.tpcw.driver;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.logbase.tpcw.web.Interaction;

/** The counters of a run: one {@link InteractionStats} per interaction of the mix, and the id sequences' conflicts. */
final class RunStats {
  final Map<Interaction, InteractionStats> byInteraction = new EnumMap<>(Interaction.class);
  final LongAdder sequenceConflicts = new LongAdder();
  /** Completed interactions, warm-up included: the status line's rate. */
  final LongAdder completedAll = new LongAdder();

  RunStats(Mix mix) {
    for (Interaction i : mix.frequencies().keySet()) {
      byInteraction.put(i, new InteractionStats());
    }
  }

  long sum(Function<InteractionStats, LongAdder> counter) {
    long n = 0;
    for (InteractionStats s : byInteraction.values()) {
      n += counter.apply(s).sum();
    }
    return n;
  }
}
