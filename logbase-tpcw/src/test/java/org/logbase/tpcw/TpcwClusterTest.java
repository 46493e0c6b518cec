package org.logbase.tpcw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.chaos.cluster.ChaosCluster;

/**
 * TPC-W in CI: a tiny database (1,000 items, one browser's customers) on a cluster of processes
 * (ZooKeeper, a master, 3 tablet servers), each mix for 20 s through the command line a user
 * types, then the audit, which passes. Against tablet servers whose write-write validation is off,
 * the same audit reports the damage (lost updates of stock and sequences).
 */
class TpcwClusterTest {
  private static final Pattern OVERALL = Pattern.compile("\\[OVERALL] WIPS ([0-9.]+), ([0-9,]+) interactions");

  @TempDir Path dir;

  @Test
  void everyMixRunsAndTheAuditPasses() throws Exception {
    try (ChaosCluster cluster = loaded("")) {
      String zk = cluster.zkConnect();
      Path csv = dir.resolve("tpcw.csv");
      for (String mix : List.of("browsing", "shopping", "ordering")) {
        Result run = tpcw("run", "--zookeeper", zk, "--mix", mix, "--browsers", "4", "--duration", "20",
            "--csv", csv.toString(), "--label", "3");
        assertEquals(0, run.code, run.out);
        Matcher m = OVERALL.matcher(run.out);
        assertTrue(m.find(), run.out);
        assertTrue(Long.parseLong(m.group(2).replace(",", "")) > 20, "interactions in 20 s: " + run.out);
      }
      List<String> rows = Files.readAllLines(csv);
      assertTrue(rows.stream().anyMatch(r -> r.startsWith("3,ordering,") && r.contains(",Buy_Confirm,")), rows.toString());
      assertTrue(buyConfirms(rows) > 0, "orders were placed: " + rows);
      Result audit = tpcw("audit", "--zookeeper", zk);
      assertEquals(0, audit.code, audit.out);
      assertTrue(audit.out.contains("audit passed"), audit.out);
    }
  }

  @Test
  void theAuditReportsTheDamageOfServersWithoutValidation() throws Exception {
    try (ChaosCluster cluster = loaded("validation")) {
      String zk = cluster.zkConnect();
      // One id at a time: every order and new customer reads and writes its sequence row, as a SQL
      // sequence would be used, so that concurrent browsers write the same rows often.
      // The run itself may meet the damage (exit code 1: a cart line whose other columns another browser
      // deleted); what matters is what the audit says afterwards.
      tpcw("run", "--zookeeper", zk, "--mix", "ordering", "--browsers", "8", "--duration", "20", "--id-block", "1");
      Result audit = tpcw("audit", "--zookeeper", zk);
      assertEquals(1, audit.code, audit.out);
      assertTrue(audit.out.contains("audit FAILED"), audit.out);
    }
  }

  /** A cluster of processes (tablet servers broken as said, or not) with a tiny TPC-W database loaded. */
  private ChaosCluster loaded(String broken) throws Exception {
    ChaosCluster cluster = new ChaosCluster(dir.resolve("cluster"), 1, 3, Map.of(), broken);
    try {
      cluster.start();
      Result load = tpcw("load", "--zookeeper", cluster.zkConnect(), "--items", "1000", "--browsers", "1",
          "--tablets", "3");
      assertEquals(0, load.code, load.out);
      return cluster;
    } catch (Exception | AssertionError e) {
      cluster.close();
      throw e;
    }
  }

  private static long buyConfirms(List<String> csvRows) {
    long n = 0;
    for (String r : csvRows) {
      String[] f = r.split(",");
      if (f.length > 6 && f[1].equals("ordering") && f[5].equals("Buy_Confirm")) {
        n += Long.parseLong(f[6]);
      }
    }
    return n;
  }

  private record Result(int code, String out) {}

  private static Result tpcw(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of(args));
    int code;
    try (PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8)) {
      code = TpcwCommand.execute(p, p, all.toArray(String[]::new));
    }
    String text = out.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    return new Result(code, text);
  }
}
