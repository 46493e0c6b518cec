package org.logbase.shell;

import java.io.PrintWriter;
import java.util.Locale;
import org.logbase.client.ClusterStatus;
import org.logbase.client.ServerInfo;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletInfo;
import org.logbase.common.Bytes;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.Row;
import org.logbase.common.schema.ColumnGroup;

/** How the shell shows results. Bytes are shown with {@link Bytes#toStringBinary}. */
final class Printer {
  private final PrintWriter out;

  Printer(PrintWriter out) {
    this.out = out;
  }

  void line(String text) {
    out.println(text);
  }

  /**
   * One line per cell: {@code row  column=value  @timestamp}; a transaction's own writes, not
   * committed yet, show {@code @uncommitted}.
   */
  void row(Row row) {
    String key = Bytes.toStringBinary(row.key());
    row.cells().forEach((column, cell) -> out.println(key + "  " + column + "=" + Bytes.toStringBinary(cell.value())
        + "  @" + (cell.timestamp() == 0 ? "uncommitted" : HybridTimestamp.toString(cell.timestamp()))));
  }

  void count(int n, String singular, String plural) {
    out.println(n + " " + (n == 1 ? singular : plural));
  }

  void description(TableDescription d) {
    out.println("table " + d.name() + " (id " + d.schema().id() + ")");
    out.println("column groups:");
    for (ColumnGroup g : d.schema().columnGroups()) {
      out.println("  " + g.name() + " (id " + g.id() + "): " + String.join(", ", g.columns()));
    }
    out.println("tablets:");
    for (TabletInfo t : d.tablets()) {
      out.println("  " + t.tabletId() + "  [" + bound(t.startKey(), "-inf") + ", " + bound(t.endKey(), "+inf") + ")  "
          + (t.hasServer() ? t.serverId() + " " + t.address() : t.serverId() + " (not live)"));
    }
  }

  void status(ClusterStatus s) {
    out.println("active master: " + s.activeMaster());
    out.println("masters: " + String.join(", ", s.masters()));
    out.println("tables: " + s.tables());
    out.println("servers: " + s.servers().size());
    for (ServerInfo server : s.servers()) {
      out.println(String.format(Locale.ROOT, "  %s  %s  %s  tablets=%d  requests=%d  req/s=%.1f  log=%s",
          server.serverId(), server.address(), server.live() ? "live" : "dead", server.tablets().size(),
          server.requests(), server.requestsPerSecond(), size(server.logBytes())));
      if (!server.tablets().isEmpty()) {
        out.println("    " + String.join(" ", server.tablets()));
      }
    }
  }

  private static String bound(byte[] key, String unbounded) {
    return key.length == 0 ? unbounded : Bytes.toStringBinary(key);
  }

  private static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    int unit = (63 - Long.numberOfLeadingZeros(bytes)) / 10;
    return String.format(Locale.ROOT, "%.1f %siB", bytes / (double) (1L << (unit * 10)), "KMGTPE".charAt(unit - 1));
  }
}
