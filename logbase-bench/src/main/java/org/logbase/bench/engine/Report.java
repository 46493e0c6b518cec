package org.logbase.bench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A plain-text result table with aligned columns, and the one-line {@code RESULT key=value ...}
 * summary that scripts grep for.
 */
public final class Report {
  private final String[] header;
  private final List<String[]> rows = new ArrayList<>();

  public Report(String... header) {
    this.header = header;
  }

  public Report row(Object... cells) {
    String[] r = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      r[i] = cells[i] instanceof Double d ? num(d) : String.valueOf(cells[i]);
    }
    rows.add(r);
    return this;
  }

  public void print() {
    int cols = header.length;
    for (String[] r : rows) {
      cols = Math.max(cols, r.length);
    }
    int[] width = new int[cols];
    List<String[]> all = new ArrayList<>();
    all.add(header);
    all.addAll(rows);
    for (String[] r : all) {
      for (int i = 0; i < r.length; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] r : all) {
      for (int i = 0; i < r.length; i++) {
        // First column left-aligned (labels), the others right-aligned (numbers).
        sb.append(i == 0 ? String.format("%-" + width[i] + "s", r[i]) : String.format("  %" + width[i] + "s", r[i]));
      }
      sb.append('\n');
      if (r == header) {
        int total = 0;
        for (int w : width) {
          total += w + 2;
        }
        sb.append("-".repeat(total - 2)).append('\n');
      }
    }
    System.out.print(sb);
    System.out.flush();
  }

  /** A number for people: thousands separators for big ones, three significant-ish decimals for small. */
  public static String num(double v) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    if (Math.abs(v) >= 100) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /** Whether a ratio meets its target, in words. */
  public static String verdict(double ratio, double target) {
    return ratio >= target
        ? String.format(Locale.ROOT, "meets target >= %.2f", target)
        : String.format(Locale.ROOT, "BELOW target %.2f", target);
  }

  public static void heading(String title) {
    System.out.println();
    System.out.println("== " + title + " ==");
  }

  /**
   * Prints {@code RESULT name=<name> k1=v1 k2=v2 ...}: one line, no spaces inside values, numbers
   * without separators, so that {@code grep ^RESULT} and a split on spaces and '=' read it.
   */
  public static void result(String name, Object... keyValues) {
    StringBuilder sb = new StringBuilder("RESULT name=").append(name);
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      Object v = keyValues[i + 1];
      String s = v instanceof Double d ? String.format(Locale.ROOT, "%.3f", d) : String.valueOf(v);
      sb.append(' ').append(keyValues[i]).append('=').append(s.replace(' ', '_'));
    }
    System.out.println(sb);
    System.out.flush();
  }
}
