package org.logbase.bench.scaleout;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.lines.SeriesLines;

/**
 * Draws the scale-out charts (PNG, with XChart) from bin/bench-tpcw.sh's CSV files, and prints the
 * tables docs/benchmarks.md shows (also written, Markdown, to table.md beside TPCW_CSV): for each
 * mix (and YCSB phase) and cluster size, the rate, its ratio to one server, latency, for TPC-W the
 * conflict and abort rates, and the cores the tablet servers got and the machine's other users took
 * (a run whose servers got less than their quota was disturbed). Where a CSV has several rows for
 * one mix and size (a point run again), the last one counts.
 *
 * <pre>ScaleOutCharts TPCW_CSV YCSB_CSV OUTDIR</pre>
 */
public final class ScaleOutCharts {
  private static final int WIDTH = 720;
  private static final int HEIGHT = 420;

  private ScaleOutCharts() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: ScaleOutCharts TPCW_CSV YCSB_CSV OUTDIR");
      System.exit(2);
    }
    Path out = Path.of(args[2]);
    Files.createDirectories(out);
    CsvTable tpcw = new CsvTable(Path.of(args[0]));
    Map<String, TreeMap<Integer, Map<String, String>>> mixes = new LinkedHashMap<>();
    for (Map<String, String> r : tpcw.where(r -> r.get("interaction").equals("TOTAL"))) {
      mixes.computeIfAbsent(r.get("mix"), m -> new TreeMap<>()).put(Integer.parseInt(r.get("label")), r);
    }
    Map<String, TreeMap<Integer, Map<String, String>>> tpcwMixes = new LinkedHashMap<>();
    Map<String, TreeMap<Integer, Map<String, String>>> paperMixes = new LinkedHashMap<>();
    mixes.forEach((m, rows) -> (m.startsWith("paper-") ? paperMixes : tpcwMixes).put(m, rows));
    save(rateChart("TPC-W: web interactions per second", "WIPS", tpcwMixes, "wips"), out.resolve("tpcw-wips.png"));
    save(latencyChart("TPC-W: interaction latency (p50 solid, p99 dashed)", tpcwMixes),
        out.resolve("tpcw-latency.png"));
    if (!paperMixes.isEmpty()) {
      save(rateChart("The paper's reduced TPC-W: transactions per second", "transactions/s", paperMixes, "wips"),
          out.resolve("tpcw-paper-tps.png"));
      save(latencyChart("The paper's reduced TPC-W: latency (p50 solid, p99 dashed)", paperMixes),
          out.resolve("tpcw-paper-latency.png"));
    }
    Map<String, String> cpu = cpuByRun(Path.of(args[0]).toAbsolutePath().getParent());
    List<String> table = new ArrayList<>();
    table.add("| mix | tablet servers | browsers | WIPS | vs 1 server | p50 ms | p90 ms | p99 ms | conflicts | aborts "
        + "| servers' cores / others' cores |");
    table.add("|---|---|---|---|---|---|---|---|---|---|---|");
    mixes.forEach((mix, rows) -> rows.forEach((servers, r) -> table.add(String.format(Locale.ROOT,
        "| %s | %d | %s | %,.1f | %.2fx | %.1f | %.1f | %.1f | %.2f %% | %.2f %% | %s |", mix, servers, r.get("browsers"),
        num(r, "wips"), num(r, "wips") / num(rows.firstEntry().getValue(), "wips"), num(r, "p50_ms"),
        num(r, "p90_ms"), num(r, "p99_ms"), 100 * num(r, "conflict_rate"), 100 * num(r, "abort_rate"),
        cpu.getOrDefault(servers + "," + mix, "")))));
    Path ycsbFile = Path.of(args[1]);
    if (Files.exists(ycsbFile)) {
      CsvTable ycsb = new CsvTable(ycsbFile);
      Map<String, TreeMap<Integer, Map<String, String>>> phases = new LinkedHashMap<>();
      for (Map<String, String> r : ycsb.where(r -> r.get("operation").equals("OVERALL"))) {
        phases.computeIfAbsent(r.get("phase"), p -> new TreeMap<>()).put(Integer.parseInt(r.get("servers")), r);
      }
      if (!phases.isEmpty()) {
        save(rateChart("YCSB: load and workload A", "operations/s", phases, "throughput"), out.resolve("ycsb-ops.png"));
        table.add("");
        table.add("| YCSB | tablet servers | operations/s | vs 1 server | average ms (p99 ms) by operation "
            + "| servers' cores / others' cores |");
        table.add("|---|---|---|---|---|---|");
        phases.forEach((phase, rows) -> rows.forEach((servers, r) -> {
          Map<String, String> ops = new TreeMap<>(); // the last row of each operation
          for (Map<String, String> o : ycsb.where(x -> x.get("phase").equals(phase)
              && x.get("servers").equals(String.valueOf(servers)) && !x.get("operation").equals("OVERALL"))) {
            ops.put(o.get("operation"), String.format(Locale.ROOT, "%s %.1f (%.1f)", o.get("operation"),
                num(o, "avg_ms"), num(o, "p99_ms")));
          }
          table.add(String.format(Locale.ROOT, "| %s | %d | %,.1f | %.2fx | %s | %s |", phase, servers,
              num(r, "throughput"), num(r, "throughput") / num(rows.firstEntry().getValue(), "throughput"),
              String.join(", ", ops.values()), cpu.getOrDefault(servers + ",ycsb-" + phase, "")));
        }));
      }
    }
    Files.write(Path.of(args[0]).toAbsolutePath().resolveSibling("table.md"), table);
    table.forEach(System.out::println);
  }

  /**
   * From bin/bench-tpcw.sh's cpu.csv and runs.csv beside the CSV (where they exist), per "servers,run":
   * the cores the tablet servers used together, and those the machine's other users kept busy (the
   * last rows of a run count, as for the results).
   */
  private static Map<String, String> cpuByRun(Path dir) throws IOException {
    Map<String, Double> servers = new LinkedHashMap<>();
    Map<String, Double> others = new LinkedHashMap<>();
    if (dir != null && Files.exists(dir.resolve("cpu.csv")) && Files.exists(dir.resolve("runs.csv"))) {
      Map<String, Double> byProcess = new LinkedHashMap<>();
      for (Map<String, String> r : new CsvTable(dir.resolve("cpu.csv")).where(r -> r.get("process").startsWith("ts"))) {
        byProcess.put(r.get("servers") + "," + r.get("run") + "," + r.get("process"), num(r, "cores"));
      }
      byProcess.forEach((k, cores) -> servers.merge(k.substring(0, k.lastIndexOf(',')), cores, Double::sum));
      for (Map<String, String> r : new CsvTable(dir.resolve("runs.csv")).where(r -> true)) {
        others.put(r.get("servers") + "," + r.get("run"), num(r, "other_cores"));
      }
    }
    Map<String, String> out = new HashMap<>();
    servers.forEach((run, cores) -> out.put(run, String.format(Locale.ROOT, "%.2f / %.2f", cores,
        others.getOrDefault(run, Double.NaN))));
    return out;
  }

  private static double num(Map<String, String> row, String column) {
    return Double.parseDouble(row.get(column));
  }

  private static XYChart chart(String title, String yTitle) {
    XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle("tablet servers (CPU-capped)")
        .yAxisTitle(yTitle).build();
    c.getStyler().setLegendPosition(LegendPosition.InsideNW);
    c.getStyler().setXAxisDecimalPattern("0");
    c.getStyler().setYAxisMin(0.0);
    c.getStyler().setMarkerSize(8);
    return c;
  }

  private static XYChart rateChart(String title, String yTitle, Map<String, TreeMap<Integer, Map<String, String>>> series,
      String column) {
    XYChart c = chart(title, yTitle);
    series.forEach((name, rows) -> c.addSeries(name, xs(rows), ys(rows, column)));
    return c;
  }

  private static XYChart latencyChart(String title, Map<String, TreeMap<Integer, Map<String, String>>> series) {
    XYChart c = chart(title, "ms");
    Color[] palette = c.getStyler().getSeriesColors(); // a series has no colour of its own before it is drawn
    int i = 0;
    for (Map.Entry<String, TreeMap<Integer, Map<String, String>>> e : series.entrySet()) {
      Color color = palette[i++ % palette.length];
      XYSeries p50 = c.addSeries(e.getKey() + " p50", xs(e.getValue()), ys(e.getValue(), "p50_ms"));
      XYSeries p99 = c.addSeries(e.getKey() + " p99", xs(e.getValue()), ys(e.getValue(), "p99_ms"));
      for (XYSeries s : List.of(p50, p99)) {
        s.setLineColor(color);
        s.setMarkerColor(color);
      }
      p99.setLineStyle(SeriesLines.DASH_DASH);
    }
    return c;
  }

  private static List<Double> xs(TreeMap<Integer, Map<String, String>> rows) {
    List<Double> x = new ArrayList<>();
    rows.keySet().forEach(k -> x.add(k.doubleValue()));
    return x;
  }

  private static List<Double> ys(TreeMap<Integer, Map<String, String>> rows, String column) {
    List<Double> y = new ArrayList<>();
    rows.values().forEach(r -> y.add(Double.parseDouble(r.get(column))));
    return y;
  }

  private static void save(XYChart c, Path file) throws IOException {
    BitmapEncoder.saveBitmap(c, file.toString(), BitmapFormat.PNG);
    System.out.println("chart " + file);
  }
}
