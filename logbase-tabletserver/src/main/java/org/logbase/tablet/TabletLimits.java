package org.logbase.tablet;

import org.logbase.common.Config;

/**
 * Size limits that keep one request from hurting a server.
 *
 * @param maxKeyBytes largest row key (HBase's limit, 32767, by default)
 * @param maxValueBytes largest single column value
 */
public record TabletLimits(int maxKeyBytes, int maxValueBytes) {
  public static final String MAX_KEY_BYTES = "tablet.key.max.bytes";
  public static final String MAX_VALUE_BYTES = "tablet.value.max.bytes";
  public static final TabletLimits DEFAULT = new TabletLimits(Short.MAX_VALUE, 8 << 20);

  public static TabletLimits from(Config c) {
    return new TabletLimits(
        Math.toIntExact(c.getBytes(MAX_KEY_BYTES, DEFAULT.maxKeyBytes)),
        Math.toIntExact(c.getBytes(MAX_VALUE_BYTES, DEFAULT.maxValueBytes)));
  }
}
