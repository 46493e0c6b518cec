package org.logbase.dist.storagedemo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.dist.storagedemo.CheckedValues.Kind;
import org.logbase.log.Durability;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;

/** The crash test's checker must be able to fail: it catches lost, changed and half-visible writes. */
class AckVerifierTest {
  @TempDir Path dir;

  @Test
  void catchesLostChangedAndHalfVisibleWrites() throws Exception {
    TabletDescriptor d = new TabletDescriptor(CheckedValues.USERS, 0, null, null);
    try (StorageEngine e = StorageEngine.open(EngineOptions.of(dir.toUri(), Config.empty(), List.of(d)));
        TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.tablet(d.id());
      long ts = txns.put(t, bytes("a"), Map.of(
          "name", CheckedValues.value("a", 1, Kind.FULL, "name"),
          "email", CheckedValues.value("a", 1, Kind.FULL, "email"),
          "visits", CheckedValues.value("a", 1, Kind.FULL, "visits"),
          "score", CheckedValues.value("a", 1, Kind.FULL, "score")), Durability.HFLUSH);
      Ack good = new Ack("a", 1, Kind.FULL, ts);
      assertTrue(AckVerifier.verify(t, List.of(good)).ok());

      assertFalse(AckVerifier.verify(t, List.of(new Ack("a", 2, Kind.FULL, ts))).ok(), "changed value");
      assertFalse(AckVerifier.verify(t, List.of(new Ack("b", 1, Kind.FULL, ts))).ok(), "lost write");

      // A two-group write visible in one group only.
      txns.put(t, bytes("c"), Map.of("name", CheckedValues.value("c", 5, Kind.FULL, "name")), Durability.HFLUSH);
      AckVerifier.Result r = AckVerifier.verify(t, List.of(good));
      assertFalse(r.ok(), "half-visible write");
      assertTrue(r.problems().get(0).contains("half-visible"), r.problems().toString());
    }
  }

  @Test
  void catchesTornValues() throws Exception {
    TabletDescriptor d = new TabletDescriptor(CheckedValues.USERS, 0, null, null);
    try (StorageEngine e = StorageEngine.open(EngineOptions.of(dir.toUri(), Config.empty(), List.of(d)));
        TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.tablet(d.id());
      byte[] v = CheckedValues.value("x", 1, Kind.PARTIAL, "score");
      v[v.length - 1] ^= 1;
      txns.put(t, bytes("x"), Map.of("score", v), Durability.HFLUSH);
      assertFalse(AckVerifier.verify(t, List.of()).ok());
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
