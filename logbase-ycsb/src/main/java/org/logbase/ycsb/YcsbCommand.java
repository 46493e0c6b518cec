package org.logbase.ycsb;

import java.util.ArrayList;
import java.util.List;
import site.ycsb.Client;

/**
 * {@code bin/logbase ycsb load|run [YCSB options]}: runs YCSB's client with the LogBase binding, so
 * a user writes {@code -P logbase-ycsb/workloads/workloada} and gets YCSB's usual progress and
 * summary. Exits 1 when operations failed (YCSB's client alone exits 0 regardless), through
 * {@link ExitStatusExporter}; {@code -p exporter=...} chooses how the summary is written.
 */
public final class YcsbCommand {
  private static final String EXPORTER = Client.EXPORTER_PROPERTY;

  private YcsbCommand() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || !(args[0].equals("load") || args[0].equals("run"))) {
      System.err.println("usage: bin/logbase ycsb load|run -P <workload file> [-p key=value ...] [-threads N] [-s]");
      System.err.println("  binding properties: logbase.zookeeper (localhost:2181), logbase.columngroup (f),");
      System.err.println("  logbase.durability (hflush|hsync), logbase.createtable (true), logbase.tablets (6)");
      System.exit(2);
    }
    List<String> a = new ArrayList<>(List.of("-db", LogBaseYcsbClient.class.getName(), args[0].equals("load") ? "-load" : "-t"));
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("-p") && i + 1 < args.length && args[i + 1].startsWith(EXPORTER + "=")) {
        ExitStatusExporter.delegateTo(args[++i].substring(EXPORTER.length() + 1));
      } else {
        a.add(args[i]);
      }
    }
    // Last, so that it wins over a workload file's: the exit code says whether operations failed.
    a.addAll(List.of("-p", EXPORTER + "=" + ExitStatusExporter.class.getName()));
    Client.main(a.toArray(String[]::new));
  }
}
