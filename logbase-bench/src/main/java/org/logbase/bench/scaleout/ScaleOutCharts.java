package org.logbase.bench.scaleout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * tables docs/benchmarks.md shows (also written to OUTDIR/table.md, Markdown): for each mix (and
 * YCSB phase) and cluster size, the rate, its ratio to one server, latency, and for TPC-W the
 * conflict and abort rates. Where a CSV has several rows for one mix and size (a point run again),
 * the last one counts.
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
    List<String> table = new ArrayList<>();
    table.add("| mix | tablet servers | browsers | WIPS | vs 1 server | p50 ms | p90 ms | p99 ms | conflicts | aborts |");
    table.add("|---|---|---|---|---|---|---|---|---|---|");
    mixes.forEach((mix, rows) -> rows.forEach((servers, r) -> table.add(String.format(Locale.ROOT,
        "| %s | %d | %s | %,.1f | %.2fx | %.1f | %.1f | %.1f | %.2f %% | %.2f %% |", mix, servers, r.get("browsers"),
        num(r, "wips"), num(r, "wips") / num(rows.firstEntry().getValue(), "wips"), num(r, "p50_ms"),
        num(r, "p90_ms"), num(r, "p99_ms"), 100 * num(r, "conflict_rate"), 100 * num(r, "abort_rate")))));
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
        table.add("| YCSB | tablet servers | operations/s | vs 1 server | average ms (p99 ms) by operation |");
        table.add("|---|---|---|---|---|");
        phases.forEach((phase, rows) -> rows.forEach((servers, r) -> {
          Map<String, String> ops = new TreeMap<>(); // the last row of each operation
          for (Map<String, String> o : ycsb.where(x -> x.get("phase").equals(phase)
              && x.get("servers").equals(String.valueOf(servers)) && !x.get("operation").equals("OVERALL"))) {
            ops.put(o.get("operation"), String.format(Locale.ROOT, "%s %.1f (%.1f)", o.get("operation"),
                num(o, "avg_ms"), num(o, "p99_ms")));
          }
          table.add(String.format(Locale.ROOT, "| %s | %d | %,.1f | %.2fx | %s |", phase, servers,
              num(r, "throughput"), num(r, "throughput") / num(rows.firstEntry().getValue(), "throughput"),
              String.join(", ", ops.values())));
        }));
      }
    }
    Files.write(out.resolve("table.md"), table);
    table.forEach(System.out::println);
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
    series.forEach((name, rows) -> {
      XYSeries p50 = c.addSeries(name + " p50", xs(rows), ys(rows, "p50_ms"));
      XYSeries p99 = c.addSeries(name + " p99", xs(rows), ys(rows, "p99_ms"));
      p99.setLineColor(p50.getLineColor());
      p99.setMarkerColor(p50.getLineColor());
      p99.setLineStyle(SeriesLines.DASH_DASH);
    });
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
