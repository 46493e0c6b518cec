package org.logbase.tablet;

import java.util.Map;

/** One version of a row in one column group: the columns that write set, or a tombstone. */
public record Version(long timestamp, boolean tombstone, Map<String, byte[]> columns) {}
