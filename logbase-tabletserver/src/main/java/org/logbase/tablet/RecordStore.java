package org.logbase.tablet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.logbase.common.LogBaseException;
import org.logbase.log.AppendedRecord;
import org.logbase.log.Durability;
import org.logbase.log.LogPointer;
import org.logbase.log.LogRecord;
import org.logbase.log.LogWriter;
import org.logbase.log.RecordReader;

/** The tablets' door to the log: durable appends, and cached record reads by pointer. */
public final class RecordStore {
  private final LogWriter writer;
  private final RecordReader reader;
  private final RecordCache cache;

  public RecordStore(LogWriter writer, RecordReader reader, RecordCache cache) {
    this.writer = writer;
    this.reader = reader;
    this.cache = cache;
  }

  /**
   * Appends records as one group-commit unit; completes once they are durable and applied to the
   * indexes, exceptionally with the log's typed error.
   */
  public CompletableFuture<List<AppendedRecord>> append(List<LogRecord> records, Durability durability) {
    return writer.append(records, durability);
  }

  /** The cause a failed append future carries, as the exception to throw. */
  public static IOException unwrap(Throwable t) {
    return rethrow(t);
  }

  /** The record an index entry points at, from the cache or the log (CRC checked). */
  public LogRecord fetch(long pointer, int meta) throws IOException {
    LogRecord r = cache.get(pointer);
    if (r == null) {
      int length = LogPointer.frameLength(meta);
      r = reader.read(pointer, length);
      cache.put(pointer, r, length);
    }
    return r;
  }

  public RecordCache cache() {
    return cache;
  }

  private static IOException rethrow(Throwable t) {
    if (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof LogBaseException e) {
      throw e;
    }
    if (t instanceof UncheckedIOException e) {
      return e.getCause();
    }
    if (t instanceof IOException e) {
      return e;
    }
    if (t instanceof RuntimeException e) {
      throw e;
    }
    return new IOException(t);
  }
}
