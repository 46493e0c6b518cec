package org.logbase.shell;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import org.logbase.client.ClusterStatus;
import org.logbase.client.RowVersion;
import org.logbase.client.ServerInfo;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletCompaction;
import org.logbase.client.TabletInfo;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.Row;
import org.logbase.common.schema.ColumnGroup;

/** How the shell shows results. Keys and values are shown as {@link ByteText} writes them. */
final class Printer {
  /** Server start times: local time, to the second. */
  private static final DateTimeFormatter SINCE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneId.systemDefault());

  private final PrintWriter out;
  private final ByteText bytes;

  /** @param charset what {@code out} encodes in: characters it cannot show are escaped */
  Printer(PrintWriter out, Charset charset) {
    this.out = out;
    this.bytes = new ByteText(charset);
  }

  void line(String text) {
    out.println(text);
  }

  /**
   * One line per cell: {@code row  column=value  @timestamp}; a transaction's own writes, not
   * committed yet, show {@code @uncommitted}.
   */
  void row(Row row) {
    String key = bytes.format(row.key());
    row.cells().forEach((column, cell) -> out.println(key + "  " + column + "=" + bytes.format(cell.value())
        + "  @" + (cell.timestamp() == 0 ? "uncommitted" : HybridTimestamp.toString(cell.timestamp()))));
  }

  /** One version of a row: a line per column it set ({@code row  column=value  @ts}), or the delete. */
  void version(byte[] key, RowVersion v) {
    String row = bytes.format(key);
    String at = "  @" + HybridTimestamp.toString(v.timestamp());
    if (v.deleted()) {
      out.println(row + "  (deleted; group " + v.columnGroup() + ")" + at);
    }
    new TreeMap<>(v.columns()).forEach((column, value) -> out.println(row + "  " + column + "=" + bytes.format(value) + at));
  }

  /** A key as the shell prints it (the form it can be typed back in). */
  String key(byte[] key) {
    return bytes.format(key);
  }

  void count(long n, String singular, String plural) {
    out.println(n + " " + (n == 1 ? singular : plural));
  }

  void description(TableDescription d) {
    out.println("table " + d.name() + " (id " + d.schema().id() + ")");
    out.println("column groups:");
    for (ColumnGroup g : d.schema().columnGroups()) {
      out.println("  " + g.name() + " (id " + g.id() + "): " + String.join(", ", g.columns()) + "  "
          + PolicySettings.format(g.policy()));
    }
    out.println("tablets:");
    for (TabletInfo t : d.tablets()) {
      out.println("  " + t.tabletId() + "  [" + bound(t.startKey(), "-inf") + ", " + bound(t.endKey(), "+inf") + ")  "
          + (t.hasServer() ? t.serverId() + " " + t.address() : t.serverId() + " (not live)"));
    }
  }

  /**
   * The masters, then a line per tablet server; {@code detailed} adds its counters and tablets.
   * Counters count since the server started (a restarted server starts at zero), so that moment is
   * shown; {@code log} is the size of all of the server's log.
   */
  void status(ClusterStatus s, boolean detailed) {
    List<String> standby = s.masters().stream().filter(m -> !m.equals(s.activeMaster())).toList();
    out.println("active master: " + (s.activeMaster().isEmpty() ? "none (an election is under way)" : s.activeMaster())
        + (standby.isEmpty() ? "" : "; standby: " + String.join(", ", standby)));
    long live = s.servers().stream().filter(ServerInfo::live).count();
    out.println("tables: " + s.tables());
    out.println("servers: " + s.servers().size() + (live == s.servers().size() ? "" : " (" + live + " live)")
        + "; balancer " + (s.balancerEnabled() ? "on" : "off"));
    for (String move : s.movesInProgress()) {
      out.println("  moving " + move);
    }
    for (ServerInfo server : s.servers()) {
      ServerInfo.Load load = server.load();
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %s  %s  %s  tablets=%d",
          server.serverId(), server.address().isEmpty() ? "-" : server.address(),
          (server.live() ? "live" : "DEAD") + (server.draining() ? " (decommissioning)" : ""),
          server.tablets().size()));
      if (load == null) {
        line.append("  (no heartbeat from it yet)");
      } else {
        line.append(String.format(Locale.ROOT, "  log=%s  requests=%d  req/s=%.1f  since %s", size(load.logFileBytes()),
            load.requests(), load.requestsPerSecond(), load.startedAt() == null ? "?" : SINCE.format(load.startedAt())));
      }
      out.println(line);
      if (detailed && load != null) {
        out.println("    appended to the log since start: " + size(load.appendedBytes()) + "; row locks held: "
            + load.locks() + "; decisions for transactions not prepared there: " + load.unknownDecides());
      }
      if (load != null && !load.lastCompaction().isEmpty()) {
        out.println("    last compaction: " + load.lastCompaction());
      }
      if (detailed && !server.tablets().isEmpty()) {
        out.println("    tablets: " + String.join(" ", server.tablets()));
      }
    }
  }

  /** One tablet's compaction: what it read and wrote and dropped, or why it was not compacted. */
  void compaction(TabletCompaction c) {
    String tablet = "tablet " + c.tabletId() + " on " + c.serverId() + ": ";
    if (!c.compacted()) {
      out.println(tablet + "not compacted: " + c.error());
      return;
    }
    out.println(tablet + size(c.bytesIn()) + " -> " + size(c.bytesOut()) + ", versions " + c.versionsIn() + " -> "
        + c.versionsOut() + " (" + c.versionsDropped() + " dropped), " + c.segments() + " segments, " + c.millis()
        + " ms");
  }

  /** The sum of a table's compactions. */
  void compactionTotal(String table, List<TabletCompaction> all) {
    List<TabletCompaction> done = all.stream().filter(TabletCompaction::compacted).toList();
    out.println("compacted " + done.size() + " of " + all.size() + " tablets of " + table + ": "
        + size(done.stream().mapToLong(TabletCompaction::bytesIn).sum()) + " -> "
        + size(done.stream().mapToLong(TabletCompaction::bytesOut).sum()) + ", "
        + done.stream().mapToLong(TabletCompaction::versionsDropped).sum() + " versions dropped");
  }

  /** Bytes as the shell prints them (text when printable, escaped otherwise). */
  String bytes(byte[] b) {
    return bytes.format(b);
  }

  private String bound(byte[] key, String unbounded) {
    return key.length == 0 ? unbounded : bytes.format(key);
  }

  private static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    int unit = (63 - Long.numberOfLeadingZeros(bytes)) / 10;
    return String.format(Locale.ROOT, "%.1f %siB", bytes / (double) (1L << (unit * 10)), "KMGTPE".charAt(unit - 1));
  }
}
