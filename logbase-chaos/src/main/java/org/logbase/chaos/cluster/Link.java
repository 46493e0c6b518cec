package org.logbase.chaos.cluster;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.logbase.common.Threads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The network path from one process of the cluster to ZooKeeper: a TCP forwarder on a port of its
 * own, which the process is configured to connect to instead of ZooKeeper's. {@link #cut} partitions
 * the process from ZooKeeper while it runs on and everything else (clients, masters, the file
 * system) still reaches it. Bytes in flight either way are held, not dropped, as TCP retransmits
 * them across a partition (at most one buffer each way already read when the cut began), and no
 * more are read, so both ends hear nothing, not even a close: an end that closes or resets its
 * connection during the cut is closed at the other end only after the restore. A connection opened
 * during the cut is accepted and carries nothing. {@link #restore} lets the held bytes through and
 * traffic flow again. Thread-safe.
 */
public final class Link implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Link.class);
  private static final int BUFFER_BYTES = 64 << 10;

  private final String name;
  private final int targetPort;
  private final ServerSocket listener;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private boolean cut;
  private boolean closed;

  /** A link to {@code targetPort} on the loopback address, named {@code name} in thread names and logs. */
  public Link(String name, int targetPort) throws IOException {
    this.name = name;
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Threads.startDaemon("link-" + name, this::accept);
  }

  /** The port the process connects to. */
  public int port() {
    return listener.getLocalPort();
  }

  /** Stops all traffic, both ways, until {@link #restore}. */
  public synchronized void cut() {
    cut = true;
  }

  /** Lets traffic flow again, held bytes first. */
  public synchronized void restore() {
    cut = false;
    notifyAll();
  }

  public synchronized boolean isCut() {
    return cut;
  }

  private void accept() {
    while (true) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        if (!isClosed()) {
          LOG.error("link {} stopped accepting connections", name, e);
        }
        return;
      }
      Threads.startDaemon("link-" + name + "-connect", () -> connect(client));
    }
  }

  /** Connects {@code client} to the target once the link is up, and forwards both ways. */
  private void connect(Socket client) {
    sockets.add(client);
    Socket upstream = null;
    try {
      awaitOpen();
      upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
      sockets.add(upstream);
    } catch (IOException | InterruptedException e) { // the target is down (ZooKeeper killed): the client sees a close
      LOG.debug("link {}: no connection to port {}: {}", name, targetPort, e.toString());
      close(client);
      close(upstream);
      return;
    }
    Socket target = upstream;
    Threads.startDaemon("link-" + name + "-out", () -> pump(client, target));
    Threads.startDaemon("link-" + name + "-in", () -> pump(target, client));
  }

  /** Copies {@code from} to {@code to} while the link is up; closes both when either ends. */
  private void pump(Socket from, Socket to) {
    byte[] buf = new byte[BUFFER_BYTES];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      while (true) {
        awaitOpen();
        int n = in.read(buf);
        if (n < 0) {
          break;
        }
        awaitOpen();
        out.write(buf, 0, n);
      }
    } catch (IOException | InterruptedException e) { // an end closed or reset the connection: it is over
      LOG.debug("link {}: connection ended: {}", name, e.toString());
    } finally {
      holdWhileCut(); // a close, too, crosses only a link that is up
      close(from);
      close(to);
    }
  }

  /** Waits until the link is up (or closed); an interrupt ends the wait early. */
  private synchronized void holdWhileCut() {
    while (cut && !closed) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private synchronized void awaitOpen() throws InterruptedException, IOException {
    while (cut && !closed) {
      wait();
    }
    if (closed) {
      throw new IOException("link " + name + " closed");
    }
  }

  private synchronized boolean isClosed() {
    return closed;
  }

  private void close(Socket s) {
    if (s == null) {
      return;
    }
    sockets.remove(s);
    try {
      s.close();
    } catch (IOException e) { // nothing left to do with a socket that fails to close
      LOG.debug("link {}: closing a socket: {}", name, e.toString());
    }
  }

  /** Closes the listener and every connection. */
  @Override
  public void close() throws IOException {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    listener.close();
    for (Socket s : sockets) {
      close(s);
    }
  }

  @Override
  public String toString() {
    return "link " + name + " (" + port() + " to " + targetPort + (isCut() ? ", cut)" : ")");
  }
}
