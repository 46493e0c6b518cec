package org.logbase.bench.engine;

import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * Counters of a remote JVM's LogBase beans (for example {@code org.logbase:type=TabletServer,name=WritePath,*}),
 * each attribute summed over the matching beans, as first seen and as last seen: their difference is
 * the window's. A JVM that exits keeps its last reading.
 */
final class BeanSums {
  private final MBeanServerConnection beans;
  private final ObjectName pattern;
  private final String[] attributes;
  private long[] first;
  private long[] last;

  BeanSums(MBeanServerConnection beans, ObjectName pattern, String... attributes) {
    this.beans = beans;
    this.pattern = pattern;
    this.attributes = attributes;
  }

  /** Reads the counters; the first reading opens the window. */
  void snapshot() {
    long[] now = new long[attributes.length];
    try {
      Set<ObjectName> names = beans.queryNames(pattern, null);
      if (names.isEmpty() && first != null) {
        return; // unpublished as its owner closed (a client at its end): the last reading stands
      }
      for (ObjectName name : names) {
        for (int i = 0; i < attributes.length; i++) {
          now[i] += ((Number) beans.getAttribute(name, attributes[i])).longValue();
        }
      }
    } catch (Exception e) {
      return; // the JVM is gone (the client at its end): the last reading stands
    }
    if (first == null) {
      first = now;
    }
    last = now;
  }

  /** The window's increase of attribute {@code i}, or 0 without two readings. */
  long delta(int i) {
    return first == null ? 0 : last[i] - first[i];
  }
}
