package org.logbase.ycsb;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/logbase ycsb load|run [YCSB options]}: runs YCSB's client with the LogBase binding, so
 * a user writes {@code -P logbase-ycsb/workloads/workloada} and gets YCSB's usual progress and
 * summary.
 */
public final class YcsbCommand {
  private YcsbCommand() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || !(args[0].equals("load") || args[0].equals("run"))) {
      System.err.println("usage: bin/logbase ycsb load|run -P <workload file> [-p key=value ...] [-threads N] [-s]");
      System.err.println("  binding properties: logbase.zookeeper (localhost:2181), logbase.columngroup (f),");
      System.err.println("  logbase.durability (hflush|hsync), logbase.createtable (true), logbase.tablets (6)");
      System.exit(2);
    }
    List<String> a = new ArrayList<>(List.of("-db", LogBaseYcsbClient.class.getName(), args[0].equals("load") ? "-load" : "-t"));
    a.addAll(List.of(args).subList(1, args.length));
    site.ycsb.Client.main(a.toArray(String[]::new));
  }
}
