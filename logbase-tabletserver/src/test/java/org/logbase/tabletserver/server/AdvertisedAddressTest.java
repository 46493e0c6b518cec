package org.logbase.tabletserver.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code --advertise HOST:PORT} is checked before anything starts, and refused with what is wrong. */
class AdvertisedAddressTest {
  @Test
  void anAdvertisedAddressIsHostColonPort() {
    assertEquals("proxy.example:16020", TabletServer.checkedAddress("proxy.example:16020"));
    assertEquals("[::1]:16020", TabletServer.checkedAddress("[::1]:16020"));
    for (String bad : new String[] {"proxy.example", ":16020", "proxy:0", "proxy:65536", "proxy:port", "proxy:"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TabletServer.checkedAddress(bad));
      assertTrue(e.getMessage().startsWith("--advertise '" + bad + "' is not HOST:PORT"), e.getMessage());
    }
  }
}
