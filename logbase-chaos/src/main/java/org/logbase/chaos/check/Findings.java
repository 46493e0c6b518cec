package org.logbase.chaos.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.logbase.chaos.history.Txn;

/** Collects anomalies while a check runs: counts all, keeps the first few of each type. */
final class Findings {
  private final int maxExamples;
  private final Map<AnomalyType, Integer> counts = new EnumMap<>(AnomalyType.class);
  private final Map<AnomalyType, List<Anomaly>> examples = new EnumMap<>(AnomalyType.class);
  private final Set<AnomalyType> truncated = EnumSet.noneOf(AnomalyType.class);
  private final Set<String> notes = new LinkedHashSet<>();

  Findings(int maxExamples) {
    this.maxExamples = maxExamples;
  }

  /** Records one anomaly; the explanation is only rendered if it is kept. */
  void add(AnomalyType type, Supplier<String> explanation, Txn... txns) {
    int n = counts.merge(type, 1, Integer::sum);
    if (n <= maxExamples) {
      examples.computeIfAbsent(type, t -> new ArrayList<>()).add(new Anomaly(type, explanation.get(), Arrays.asList(txns)));
    }
  }

  int count(AnomalyType type) {
    return counts.getOrDefault(type, 0);
  }

  /** The search for this type stopped early: there may be more than counted. */
  void truncate(AnomalyType type) {
    truncated.add(type);
  }

  void note(String note) {
    notes.add(note);
  }

  Result result() {
    return new Result(counts, examples, truncated, List.copyOf(notes));
  }
}
