package org.logbase.chaos.cluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the run's processes. A daemon keeps its port across restarts (its address is in the
 * other processes' configuration), so the port must stay free while the daemon is down. A port
 * from the kernel's ephemeral range does not: any outgoing connection of any process on the
 * machine may take it as its local port, and the restarted daemon then fails to bind and exits.
 * These ports come from below that range, where only listeners that ask for them by number live.
 */
final class Ports {
  /** Below Linux's default ephemeral range (32768-60999) and the script checks' ports (24000 up). */
  static final int LOW = 12000;
  static final int HIGH = 23000;
  private static final int ATTEMPTS = 200;
  /** Handed out by this process: its daemons bind them only later, so a bind check alone would not see them. */
  private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

  private Ports() {}

  /** A port in [LOW, HIGH) that nothing listens on now, and not handed out before by this process. */
  static int free() throws IOException {
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    for (int i = 0; i < ATTEMPTS; i++) {
      int port = rnd.nextInt(LOW, HIGH);
      if (bindable(port) && GIVEN.add(port)) {
        return port;
      }
    }
    throw new IOException("no free port in " + LOW + "-" + HIGH + " after " + ATTEMPTS + " tries");
  }

  /** A wildcard bind fails if anything listens on the port, on any address. */
  private static boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket(port)) {
      return true;
    } catch (IOException e) {
      return false; // taken: try another
    }
  }
}
