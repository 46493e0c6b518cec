package org.logbase.client;

import java.util.Map;
import java.util.Objects;

/**
 * One row's new column values for {@link Table#batchPut}; columns may span column groups and are
 * written as one atomic version.
 */
public record Put(byte[] key, Map<String, byte[]> columns) {
  public Put {
    Objects.requireNonNull(key, "key");
    columns = Map.copyOf(columns);
  }

  public static Put of(byte[] key, Map<String, byte[]> columns) {
    return new Put(key, columns);
  }
}
