package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.logbase.common.Row;

/** The rows a scan sends, batch by batch, as its stream asks for them. */
interface RowBatches {
  /** The next rows to send (possibly none while more are to come). */
  List<Row> next() throws IOException;

  /** Whether every row has been handed out. */
  boolean exhausted();

  /** The smallest key after {@code key}. */
  static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }
}
