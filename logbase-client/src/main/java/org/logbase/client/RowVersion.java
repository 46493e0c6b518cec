package org.logbase.client;

import java.util.Map;

/**
 * One version of a row in one column group, from {@link Table#versions}: the columns one write set
 * there (partial rows: a write sets some columns), or a delete.
 *
 * @param columns column name to value, empty for a delete
 */
public record RowVersion(String columnGroup, long timestamp, boolean deleted, Map<String, byte[]> columns) {
  public RowVersion {
    columns = Map.copyOf(columns);
  }
}
