package org.logbase.common;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes an MXBean in the platform MBean server under {@code org.logbase:type=T,name=N,instance=I}
 * for as long as its owner lives. The instance number keeps several owners in one JVM (tests, a
 * tablet server's own client) apart; a tool sums over {@code org.logbase:type=T,name=N,*}.
 * Metrics are never worth failing for: a bean that cannot be published is logged and skipped.
 */
public final class Jmx {
  private static final Logger LOG = LoggerFactory.getLogger(Jmx.class);
  /** The domain of every LogBase bean. */
  public static final String DOMAIN = "org.logbase";
  private static final AtomicLong INSTANCES = new AtomicLong();

  private Jmx() {}

  /** A published bean; closing unpublishes it. */
  @FunctionalInterface
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  /** The pattern that matches every instance of {@code type}/{@code name}. */
  public static ObjectName pattern(String type, String name) {
    try {
      return new ObjectName(DOMAIN + ":type=" + type + ",name=" + name + ",*");
    } catch (JMException e) {
      throw new IllegalArgumentException("bad bean name " + type + "/" + name, e);
    }
  }

  /** Publishes {@code bean} (an object implementing an interface named {@code ...MXBean}). */
  public static Registration register(Object bean, String type, String name) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName objectName;
    try {
      objectName = new ObjectName(DOMAIN + ":type=" + type + ",name=" + name + ",instance=" + INSTANCES.incrementAndGet());
      server.registerMBean(bean, objectName);
    } catch (JMException | RuntimeException e) {
      LOG.warn("cannot publish {}/{} over JMX: {}", type, name, e.toString());
      return () -> {};
    }
    return () -> {
      try {
        server.unregisterMBean(objectName);
      } catch (JMException e) {
        LOG.debug("{} was unpublished already", objectName);
      }
    };
  }
}
