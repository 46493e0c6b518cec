package org.logbase.chaos.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A cut link carries nothing either way and loses nothing: what was held arrives once it is restored. */
class LinkTest {
  private static final int QUIET_MS = 500;

  @Test
  void aCutHoldsTrafficBothWaysAndARestoreDeliversIt() throws Exception {
    try (ServerSocket target = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Link link = new Link("test", target.getLocalPort());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), link.port());
        Socket server = target.accept()) {
      client.setSoTimeout(QUIET_MS);
      server.setSoTimeout(QUIET_MS);
      send(client, "ping");
      assertEquals("ping", receive(server, 4));

      link.cut();
      send(client, "held out");
      send(server, "held in");
      assertThrows(SocketTimeoutException.class, () -> server.getInputStream().read());
      assertThrows(SocketTimeoutException.class, () -> client.getInputStream().read());

      link.restore();
      server.setSoTimeout(30_000);
      client.setSoTimeout(30_000);
      assertEquals("held out", receive(server, 8));
      assertEquals("held in", receive(client, 7));
    }
  }

  @Test
  void aConnectionOpenedDuringACutReachesTheTargetOnlyAfterTheRestore() throws Exception {
    try (ServerSocket target = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Link link = new Link("test", target.getLocalPort())) {
      link.cut();
      try (Socket client = new Socket(InetAddress.getLoopbackAddress(), link.port())) {
        target.setSoTimeout(QUIET_MS);
        assertThrows(SocketTimeoutException.class, target::accept);
        send(client, "late");
        link.restore();
        target.setSoTimeout(30_000);
        try (Socket server = target.accept()) {
          server.setSoTimeout(30_000);
          assertEquals("late", receive(server, 4));
        }
      }
    }
  }

  @Test
  void aCloseAtOneEndClosesTheOther() throws Exception {
    try (ServerSocket target = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Link link = new Link("test", target.getLocalPort());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), link.port());
        Socket server = target.accept()) {
      server.setSoTimeout(30_000);
      client.close();
      assertEquals(-1, server.getInputStream().read());
    }
  }

  @Test
  void aCloseDuringACutReachesTheOtherEndOnlyAfterTheRestore() throws Exception {
    try (ServerSocket target = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Link link = new Link("test", target.getLocalPort());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), link.port());
        Socket server = target.accept()) {
      server.setSoTimeout(QUIET_MS);
      client.setSoTimeout(QUIET_MS);
      // A round trip each way first: both pumps have forwarded, and are back reading, when the cut comes.
      send(client, "ping");
      assertEquals("ping", receive(server, 4));
      send(server, "pong");
      assertEquals("pong", receive(client, 4));
      link.cut();
      client.close();
      assertThrows(SocketTimeoutException.class, () -> server.getInputStream().read());
      link.restore();
      server.setSoTimeout(30_000);
      assertEquals(-1, server.getInputStream().read());
    }
  }

  private static void send(Socket s, String text) throws Exception {
    OutputStream out = s.getOutputStream();
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static String receive(Socket s, int n) throws Exception {
    byte[] buf = new byte[n];
    InputStream in = s.getInputStream();
    int got = 0;
    while (got < n) {
      int r = in.read(buf, got, n - got);
      if (r < 0) {
        throw new AssertionError("closed after " + got + " bytes");
      }
      got += r;
    }
    return new String(buf, StandardCharsets.UTF_8);
  }
}
