package org.logbase.compaction;

import java.io.IOException;
import org.logbase.log.LogRecord;
import org.logbase.sorted.EntryIterator;
import org.logbase.sorted.SortedEntry;

/** A layer whose entries count against a compaction's {@link Throttle} as they are taken (an earlier segment). */
final class ThrottledEntries implements EntryIterator {
  private final EntryIterator in;
  private final Throttle throttle;

  ThrottledEntries(EntryIterator in, Throttle throttle) {
    this.in = in;
    this.throttle = throttle;
  }

  /** What a version weighs in a compaction's accounting: key, timestamp and kind, columns' names and values. */
  static long bytes(SortedEntry e) {
    long n = e.rowKey().length + 16L;
    for (LogRecord.Column c : e.columns()) {
      n += c.name().length() + c.value().length;
    }
    return n;
  }

  @Override
  public void seek(byte[] rowKey, long timestamp) throws IOException {
    in.seek(rowKey, timestamp);
  }

  @Override
  public boolean hasNext() throws IOException {
    return in.hasNext();
  }

  @Override
  public SortedEntry peek() throws IOException {
    return in.peek();
  }

  @Override
  public SortedEntry next() throws IOException {
    SortedEntry e = in.next();
    throttle.acquire(bytes(e));
    return e;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
