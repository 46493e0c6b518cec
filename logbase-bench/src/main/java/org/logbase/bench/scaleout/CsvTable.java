package org.logbase.bench.scaleout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/** A CSV file with a header line (no quoting: the benchmark's files have none), rows by column name. */
final class CsvTable {
  private final List<String> header;
  private final List<String[]> rows = new ArrayList<>();

  CsvTable(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    if (lines.isEmpty()) {
      throw new IOException(file + " is empty");
    }
    header = Arrays.asList(lines.get(0).split(","));
    for (String l : lines.subList(1, lines.size())) {
      if (!l.isBlank() && !l.equals(lines.get(0))) {
        rows.add(l.split(",", -1));
      }
    }
  }

  private int column(String name) {
    int i = header.indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException("no column " + name + " in " + header);
    }
    return i;
  }

  /** The rows that pass, each as column name to value. */
  List<Map<String, String>> where(Predicate<Map<String, String>> keep) {
    List<Map<String, String>> out = new ArrayList<>();
    for (String[] r : rows) {
      Map<String, String> m = new TreeMap<>();
      for (String h : header) {
        int i = column(h);
        m.put(h, i < r.length ? r[i] : "");
      }
      if (keep.test(m)) {
        out.add(m);
      }
    }
    return out;
  }
}
