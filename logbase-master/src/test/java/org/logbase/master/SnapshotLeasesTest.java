package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.logbase.common.InvalidRequestException;

class SnapshotLeasesTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
  private final SnapshotLeases leases = new SnapshotLeases(1000, now::get);

  @Test
  void keepsEverythingUntilOneLeasePeriodAfterActivationThenTheOldestHeldUntilItExpires() {
    assertEquals(SnapshotLeases.NOT_KNOWN, leases.oldest(), "not active");
    leases.activated();
    leases.hold("a", 500, false);
    assertEquals(SnapshotLeases.NOT_KNOWN, leases.oldest(), "the clients of the master before may hold leases");
    tick(1000);
    leases.hold("a", 500, false);
    leases.hold("b", 300, false);
    assertEquals(300, leases.oldest());
    tick(600);
    leases.hold("a", 500, false); // renewed; b is not
    tick(600);
    assertEquals(500, leases.oldest(), "b expired");
    leases.hold("a", 0, true);
    assertEquals(0, leases.oldest(), "released: none held");
  }

  @Test
  void refusesBadLeases() {
    leases.activated();
    assertThrows(InvalidRequestException.class, () -> leases.hold("", 5, false));
    assertThrows(InvalidRequestException.class, () -> leases.hold("x".repeat(65), 5, false));
    assertThrows(InvalidRequestException.class, () -> leases.hold("a", 0, false));
    assertThrows(InvalidRequestException.class, () -> leases.hold("a", -7, false));
  }

  private void tick(long ms) {
    now.addAndGet(ms * 1_000_000);
  }
}
