package org.logbase.bench.txn;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.logbase.client.LogBaseClient;
import org.logbase.client.TableDefinition;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletInfo;
import org.logbase.common.Bytes;
import org.logbase.common.NotServingTabletException;

/**
 * A table of one column {@code v} over three tablets, each on a different tablet server, so that a
 * benchmark chooses which server a row lives on: {@link #key}{@code (tablet, n)} is row n of
 * tablet 0, 1 or 2. Keys are a one-letter prefix ('a', 'b', 'c'; the split keys are "b" and "c")
 * and n as 8 big-endian bytes.
 */
final class SpreadTable {
  static final String COLUMN = "v";
  static final int TABLETS = 3;

  private final String name;
  private final List<TabletInfo> tablets;

  private SpreadTable(String name, List<TabletInfo> tablets) {
    this.name = name;
    this.tablets = tablets;
  }

  /** Creates the table, checks that its tablets went to three servers and waits until each serves its tablet. */
  static SpreadTable create(LogBaseClient client, String name) throws InterruptedException {
    client.admin().createTable(TableDefinition.builder(name).columnGroup("g", COLUMN).build(),
        Bytes.utf8("b"), Bytes.utf8("c"));
    TableDescription d = client.admin().describeTable(name);
    long servers = d.tablets().stream().map(TabletInfo::serverId).distinct().count();
    if (d.tablets().size() != TABLETS || servers != TABLETS) {
      throw new IllegalStateException("table " + name + " should have 3 tablets on 3 servers: " + d.tablets());
    }
    for (int t = 0; t < TABLETS; t++) {
      byte[] probe = key(t, 0);
      TabletInfo tablet = d.tablets().stream().filter(i -> i.contains(probe)).findFirst().orElseThrow();
      awaitServing(client, name, probe, tablet);
      System.out.printf("table %s: keys '%c...' in %s%n", name, (char) ('a' + t), tablet);
    }
    return new SpreadTable(name, d.tablets());
  }

  private static void awaitServing(LogBaseClient client, String table, byte[] key, TabletInfo tablet)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        client.table(table).get(key);
        return;
      } catch (NotServingTabletException e) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(tablet + " is not served after 60 s", e);
        }
        Thread.sleep(50);
      }
    }
  }

  String name() {
    return name;
  }

  /** The server id of tablet {@code t}. */
  String server(int tablet) {
    byte[] probe = key(tablet, 0);
    return tablets.stream().filter(i -> i.contains(probe)).findFirst().orElseThrow().serverId();
  }

  /** Row {@code n} of tablet {@code tablet} (0, 1 or 2). */
  static byte[] key(int tablet, long n) {
    byte[] k = new byte[9];
    k[0] = (byte) ('a' + tablet);
    for (int i = 8; i >= 1; i--) {
      k[i] = (byte) n;
      n >>>= 8;
    }
    return k;
  }
}
