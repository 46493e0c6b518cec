package org.logbase.tablet;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.logbase.log.LogRecord;

/**
 * A forward cursor over row versions in entry order (row key ascending, timestamp descending), from
 * wherever a column group keeps them: its in-memory index (the record is fetched from the log only
 * when its columns or transaction are asked for), its sorted segments, or a merge of both ({@link
 * GroupVersions}). Call {@link #next()} before the first version. Used by one thread. A cursor
 * over a range of sorted segments holds a stream of each while it reads them ({@code
 * SortedSegmentReader#scan}): close it when done unless it was read to its end.
 */
public interface VersionCursor extends Closeable {
  boolean next() throws IOException;

  /** The current row key (the caller must not change it). */
  byte[] key();

  long timestamp();

  boolean isTombstone();

  /** The transaction that wrote the current version; 0 if it committed by itself. */
  long txnId() throws IOException;

  /** The current version's columns (none for a tombstone). */
  List<LogRecord.Column> columns() throws IOException;
}
