package org.logbase.chaos.check;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a check found: anomalies by type with explanations, their counts, and whether the history is
 * consistent with strong snapshot isolation. Cycle counts are the number of witnesses found (at most
 * one per strongly connected component and class); a type whose search stopped at the configured
 * limit is {@link #truncated}. Write skew ({@link AnomalyType#G2_ITEM}) is counted but allowed.
 */
public final class Result {
  private static final int SUMMARY_EXAMPLES = 3;

  private final Map<AnomalyType, Integer> counts;
  private final Map<AnomalyType, List<Anomaly>> anomalies;
  private final Set<AnomalyType> truncated;
  private final List<String> notes;

  Result(Map<AnomalyType, Integer> counts, Map<AnomalyType, List<Anomaly>> anomalies, Set<AnomalyType> truncated,
      List<String> notes) {
    Map<AnomalyType, Integer> countsCopy = new EnumMap<>(AnomalyType.class);
    countsCopy.putAll(counts);
    this.counts = Collections.unmodifiableMap(countsCopy);
    Map<AnomalyType, List<Anomaly>> copy = new EnumMap<>(AnomalyType.class);
    anomalies.forEach((type, list) -> copy.put(type, List.copyOf(list)));
    this.anomalies = Collections.unmodifiableMap(copy);
    Set<AnomalyType> truncatedCopy = EnumSet.noneOf(AnomalyType.class);
    truncatedCopy.addAll(truncated);
    this.truncated = Collections.unmodifiableSet(truncatedCopy);
    this.notes = notes;
  }

  /** False iff an anomaly forbidden under strong snapshot isolation was found. */
  public boolean valid() {
    return counts.keySet().stream().noneMatch(AnomalyType::forbidden);
  }

  /** How many anomalies of each type that occurred were found. */
  public Map<AnomalyType, Integer> counts() {
    return counts;
  }

  public int count(AnomalyType type) {
    return counts.getOrDefault(type, 0);
  }

  /** The kept anomalies (the first few of each type), by type. */
  public Map<AnomalyType, List<Anomaly>> anomalies() {
    return anomalies;
  }

  public List<Anomaly> anomalies(AnomalyType type) {
    return anomalies.getOrDefault(type, List.of());
  }

  /** Whether the search for this type stopped at its limit, so that there may be more. */
  public boolean truncated(AnomalyType type) {
    return truncated.contains(type);
  }

  /** Remarks on the check itself, e.g. a cycle search that ran out of its budget. */
  public List<String> notes() {
    return notes;
  }

  /**
   * A verdict line, then one line per anomaly type: its count, and for forbidden types up to 3
   * examples (allowed ones, such as write skew, only count).
   */
  public String summary() {
    List<String> lines = new ArrayList<>();
    lines.add(valid() ? "valid: no anomaly forbidden under strong snapshot isolation"
        : "INVALID: anomalies forbidden under strong snapshot isolation");
    counts.forEach((type, n) -> {
      StringBuilder b = new StringBuilder(type.label()).append(": ").append(n)
          .append(truncated.contains(type) ? "+" : "")
          .append(type.forbidden() ? " (forbidden)" : " (allowed under snapshot isolation)");
      List<Anomaly> some = type.forbidden() ? anomalies(type) : List.of();
      for (int i = 0; i < Math.min(SUMMARY_EXAMPLES, some.size()); i++) {
        b.append(i == 0 ? ", e.g. " : " | ").append(some.get(i).explanation());
      }
      lines.add(b.toString());
    });
    notes.forEach(n -> lines.add("note: " + n));
    return String.join("\n", lines);
  }

  @Override
  public String toString() {
    return summary();
  }
}
