// A runnable LogBase client example. With a cluster running (bin/logbase demo or bin/start-cluster.sh):
//
//   java -cp "$(bin/logbase classpath)" docs/examples/QuickStart.java localhost:2181
//
// (Java runs a single source file directly; CI runs this file against the demo cluster.)

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.logbase.client.Admin;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Put;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.client.Table;
import org.logbase.client.TableDefinition;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.Row;
import org.logbase.common.TableNotFoundException;

public class QuickStart {
  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String s(byte[] b) {
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  public static void main(String[] args) {
    String zookeeper = args.length > 0 ? args[0] : "localhost:2181";
    try (LogBaseClient client = LogBaseClient.connect(zookeeper)) {
      Admin admin = client.admin();
      try {
        admin.dropTable("quickstart");
      } catch (TableNotFoundException fresh) {
        // nothing to clean up from an earlier run
      }
      // Two column groups: columns read together are stored together. Split keys make 3 tablets.
      admin.createTable(TableDefinition.builder("quickstart")
          .columnGroup("profile", "name", "email")
          .columnGroup("stats", "visits")
          .build(), b("h"), b("p"));

      Table users = client.table("quickstart");
      // One put may span column groups; it is atomic.
      long t1 = users.put(b("ada"), Map.of("name", b("Ada"), "email", b("ada@example.org"), "visits", b("1")));
      users.put(b("ada"), Map.of("visits", b("2")));           // a partial version: only one column
      users.batchPut(List.of(
          Put.of(b("grace"), Map.of("name", b("Grace"))),
          Put.of(b("linus"), Map.of("name", b("Linus"))),
          Put.of(b("tim"), Map.of("name", b("Tim")))));

      Row now = users.get(b("ada"));
      System.out.println("ada now:    name=" + s(now.value("name")) + " visits=" + s(now.value("visits")));
      Row then = users.get(b("ada"), null, t1);                 // time travel: as of the first put
      System.out.println("ada at t1:  visits=" + s(then.value("visits")) + " (" + HybridTimestamp.toString(t1) + ")");

      users.delete(b("linus"));
      try (Scanner scan = users.scan(ScanSpec.builder().columns("name").build())) {
        for (Row r : scan) {                                     // across tablets, in key order
          System.out.println("scan:       " + s(r.key()) + " -> " + s(r.value("name")));
        }
      }
      System.out.println("QUICKSTART OK");
    }
  }
}
