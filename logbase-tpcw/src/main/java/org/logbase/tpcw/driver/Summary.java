package org.logbase.tpcw.driver;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.logbase.tpcw.web.Interaction;

/**
 * The result of a run: WIPS (web interactions completed per second of the measured interval) and,
 * per interaction and in total, the count, share, latency percentiles, conflicts, aborts,
 * interactions given up and errors. Printed as a table and appended to a CSV file.
 */
public record Summary(RunSettings settings, double measuredSeconds, List<Line> lines, Line total,
    long sequenceConflicts, double clientCores) {
  /** One interaction's (or the total's) figures; rates are of the commit attempts. */
  public record Line(String interaction, boolean readOnly, long count, double p50Ms, double p90Ms, double p99Ms,
      long conflicts, long aborts, long gaveUp, long errors) {
    long attempts() {
      return count + conflicts + aborts + gaveUp + errors;
    }

    public double conflictRate() {
      return attempts() == 0 ? 0 : (double) conflicts / attempts();
    }

    public double abortRate() {
      return attempts() == 0 ? 0 : (double) aborts / attempts();
    }
  }

  public static final String CSV_HEADER = "label,mix,browsers,think_ms,seconds,interaction,count,share,wips,"
      + "p50_ms,p90_ms,p99_ms,conflicts,aborts,gave_up,errors,conflict_rate,abort_rate,sequence_conflicts,client_cores";

  static Summary of(RunSettings settings, double measuredSeconds, RunStats stats, double clientCores) {
    List<Line> lines = new ArrayList<>();
    LatencyHistogram all = new LatencyHistogram();
    for (Map.Entry<Interaction, InteractionStats> e : stats.byInteraction.entrySet()) {
      InteractionStats s = e.getValue();
      lines.add(new Line(e.getKey().title(), e.getKey().readOnly(), s.completed.sum(), s.latency.percentileMs(50),
          s.latency.percentileMs(90), s.latency.percentileMs(99), s.conflicts.sum(), s.aborts.sum(), s.gaveUp.sum(),
          s.errors.sum()));
      all.add(s.latency);
    }
    Line total = new Line("TOTAL", false, stats.sum(s -> s.completed), all.percentileMs(50), all.percentileMs(90),
        all.percentileMs(99), stats.sum(s -> s.conflicts), stats.sum(s -> s.aborts), stats.sum(s -> s.gaveUp),
        stats.sum(s -> s.errors));
    return new Summary(settings, measuredSeconds, lines, total, stats.sequenceConflicts.sum(), clientCores);
  }

  public double wips() {
    return total.count / measuredSeconds;
  }

  /** The commit attempts of update interactions refused by first-committer-wins, as a share of them. */
  public double updateConflictRate() {
    long conflicts = 0;
    long attempts = 0;
    for (Line l : lines) {
      if (!l.readOnly) {
        conflicts += l.conflicts;
        attempts += l.attempts();
      }
    }
    return attempts == 0 ? 0 : (double) conflicts / attempts;
  }

  public void print(PrintStream out) {
    out.printf(Locale.ROOT, "[TPC-W] mix %s, %d browsers, think time %d ms, %.1f s measured after %d s warm-up%n",
        settings.mix().label(), settings.browsers(), settings.thinkMs(), measuredSeconds, settings.warmupSeconds());
    out.printf(Locale.ROOT, "[OVERALL] WIPS %.1f, %,d interactions, p50 %.1f ms, p90 %.1f ms, p99 %.1f ms; "
        + "driver CPU %.2f cores%n", wips(), total.count, total.p50Ms, total.p90Ms, total.p99Ms, clientCores);
    out.printf(Locale.ROOT, "[OVERALL] conflicts %,d (%.2f%% of update transactions' attempts), aborts %,d, "
        + "gave up %,d, errors %,d, id-sequence conflicts %,d%n", total.conflicts, updateConflictRate() * 100,
        total.aborts, total.gaveUp, total.errors, sequenceConflicts);
    out.printf("%-22s %9s %7s %9s %9s %9s %9s %7s %7s %7s%n", "interaction", "count", "share", "p50 ms", "p90 ms",
        "p99 ms", "conflicts", "aborts", "gaveup", "errors");
    for (Line l : lines) {
      out.printf(Locale.ROOT, "%-22s %9d %6.2f%% %9.1f %9.1f %9.1f %9d %7d %7d %7d%n", l.interaction, l.count,
          total.count == 0 ? 0.0 : 100.0 * l.count / total.count, l.p50Ms, l.p90Ms, l.p99Ms, l.conflicts, l.aborts,
          l.gaveUp, l.errors);
    }
  }

  /** Appends one CSV row per interaction and one for the total; writes the header first into a new file. */
  public void appendCsv(Path file, String label) throws IOException {
    List<String> rows = new ArrayList<>();
    if (!Files.exists(file) || Files.size(file) == 0) {
      rows.add(CSV_HEADER);
    }
    for (Line l : lines) {
      rows.add(csv(label, l));
    }
    rows.add(csv(label, total));
    Files.write(file, rows, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private String csv(String label, Line l) {
    return String.format(Locale.ROOT, "%s,%s,%d,%d,%.1f,%s,%d,%.4f,%.2f,%.2f,%.2f,%.2f,%d,%d,%d,%d,%.4f,%.4f,%d,%.2f",
        label.replace(',', ';'), settings.mix().label(), settings.browsers(), settings.thinkMs(), measuredSeconds,
        l.interaction.replace(' ', '_'), l.count, total.count == 0 ? 0.0 : (double) l.count / total.count,
        l.count / measuredSeconds, l.p50Ms, l.p90Ms, l.p99Ms, l.conflicts, l.aborts, l.gaveUp, l.errors,
        l.conflictRate(), l.abortRate(), sequenceConflicts, clientCores);
  }
}
