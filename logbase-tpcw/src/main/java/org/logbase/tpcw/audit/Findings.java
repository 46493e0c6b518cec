package org.logbase.tpcw.audit;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What an audit found, by check: how many problems, and the first few of each described. */
public final class Findings {
  private static final int EXAMPLES = 5;

  private final Map<String, List<String>> examples = new LinkedHashMap<>();
  private final Map<String, Long> counts = new LinkedHashMap<>();

  /** Declares a check (so that a check with no problem is listed as passed). */
  void check(String name) {
    counts.putIfAbsent(name, 0L);
    examples.putIfAbsent(name, new ArrayList<>());
  }

  void problem(String check, String description) {
    check(check);
    counts.merge(check, 1L, Long::sum);
    List<String> e = examples.get(check);
    if (e.size() < EXAMPLES) {
      e.add(description);
    }
  }

  public boolean passed() {
    return problems() == 0;
  }

  public long problems() {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Problems found by one check. */
  public long problems(String check) {
    return counts.getOrDefault(check, 0L);
  }

  public List<String> checks() {
    return List.copyOf(counts.keySet());
  }

  public void print(PrintStream out) {
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      out.printf("%-6s %s%s%n", e.getValue() == 0 ? "ok" : "FAILED", e.getKey(),
          e.getValue() == 0 ? "" : String.format(": %,d problems", e.getValue()));
      for (String x : examples.get(e.getKey())) {
        out.println("         " + x);
      }
    }
    out.println(passed() ? "audit passed: " + counts.size() + " checks"
        : String.format("audit FAILED: %,d problems in %d of %d checks", problems(),
            counts.values().stream().filter(n -> n > 0).count(), counts.size()));
  }
}
