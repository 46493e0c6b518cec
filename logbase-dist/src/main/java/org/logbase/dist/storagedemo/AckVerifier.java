package org.logbase.dist.storagedemo;

import org.logbase.common.Row;
import org.logbase.common.Cell;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.logbase.common.HybridTimestamp;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.Version;

/**
 * Checks a recovered tablet against the acknowledgements recorded outside the writer: every
 * acknowledged write is there, byte-identical, at its timestamp; and every version present,
 * acknowledged or not, is whole (intact values, and a two-group write visible in both groups or in
 * neither).
 */
public final class AckVerifier {
  /** What the check found; {@code problems} is empty when all holds. */
  public record Result(int acked, int rows, long versions, List<String> problems) {
    public boolean ok() {
      return problems.isEmpty();
    }

    @Override
    public String toString() {
      return String.format("%d acknowledged writes checked, %d rows and %d versions inspected: %s", acked, rows,
          versions, ok() ? "all present and whole" : problems.size() + " problems, first: " + problems.get(0));
    }
  }

  private static final int MAX_PROBLEMS = 50;

  private AckVerifier() {}

  public static Result verify(Tablet t, List<Ack> acks) throws IOException {
    List<String> problems = new ArrayList<>();
    for (Ack a : acks) {
      Row r = t.get(a.key().getBytes(StandardCharsets.UTF_8), a.kind().columns, a.timestamp());
      for (String c : a.kind().columns) {
        Cell cell = r == null ? null : r.cells().get(c);
        byte[] want = CheckedValues.value(a.key(), a.seq(), a.kind(), c);
        if (cell == null || cell.timestamp() != a.timestamp() || !Arrays.equals(want, cell.value())) {
          problem(problems, "acknowledged write lost or changed: " + a.line() + " column " + c);
        }
      }
    }
    int rows = 0;
    long versions = 0;
    for (Row row : t.scan(null, null, null, HybridTimestamp.LATEST, 0)) {
      rows++;
      Map<Long, Version> profile = byTimestamp(t.versions(row.key(), "profile", HybridTimestamp.LATEST, 0));
      Map<Long, Version> stats = byTimestamp(t.versions(row.key(), "stats", HybridTimestamp.LATEST, 0));
      versions += profile.size() + stats.size();
      String key = new String(row.key(), StandardCharsets.UTF_8);
      checkGroup(key, profile, stats, problems);
      checkGroup(key, stats, profile, problems);
    }
    return new Result(acks.size(), rows, versions, problems);
  }

  private static void checkGroup(String key, Map<Long, Version> mine, Map<Long, Version> other, List<String> problems) {
    for (Version v : mine.values()) {
      for (Map.Entry<String, byte[]> e : v.columns().entrySet()) {
        CheckedValues.Header h = CheckedValues.parse(e.getValue());
        if (!CheckedValues.intact(e.getValue()) || !h.key().equals(key) || !h.column().equals(e.getKey())) {
          problem(problems, "torn or misplaced value in row " + key + " column " + e.getKey() + " at " + v.timestamp());
        } else if (h.kind() == CheckedValues.Kind.FULL && !other.containsKey(v.timestamp())) {
          problem(problems, "half-visible write: row " + key + " seq " + h.seq() + " at " + v.timestamp()
              + " is in one column group only");
        }
      }
    }
  }

  private static Map<Long, Version> byTimestamp(List<Version> vs) {
    Map<Long, Version> m = new HashMap<>();
    vs.forEach(v -> m.put(v.timestamp(), v));
    return m;
  }

  private static void problem(List<String> problems, String p) {
    if (problems.size() < MAX_PROBLEMS) {
      problems.add(p);
    }
  }
}
