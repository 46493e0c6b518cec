package org.logbase.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.client.Table;
import org.logbase.client.TableDefinition;

/** The embedded default (bin/logbase standalone): one JVM serves a client, and keeps data across restarts. */
class StandaloneTest {
  @TempDir Path dir;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  Standalone standalone(int zkPort) throws Exception {
    Standalone s = new Standalone();
    s.dir = dir;
    s.zkPort = zkPort;
    s.masterPort = 0;
    s.tabletServerPort = 0;
    s.configFile = dir.resolve("no-such-file");
    s.start();
    return s;
  }

  @Test
  void servesAClientAndRecoversAfterARestart() throws Exception {
    int zkPort = LocalCluster.freePort();
    try (Standalone s = standalone(zkPort);
        LogBaseClient client = LogBaseClient.connect("localhost:" + zkPort)) {
      client.admin().createTable(TableDefinition.builder("t").columnGroup("g", "c").build(), b("m"));
      Table t = client.table("t");
      for (int i = 0; i < 100; i++) {
        t.put(b("k" + i), Map.of("c", b("v" + i)));
      }
    }
    try (Standalone s = standalone(zkPort);
        LogBaseClient client = LogBaseClient.connect("localhost:" + zkPort)) {
      Table t = client.table("t");
      assertArrayEquals(b("v42"), t.get(b("k42")).value("c"));
      try (Scanner sc = t.scan(ScanSpec.all())) {
        assertEquals(100, sc.stream().count());
      }
      assertEquals(List.of("t"), client.admin().listTables());
    }
  }
}
