package org.logbase.tablet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.logbase.common.Closeables;
import org.logbase.index.EntryOrder;
import org.logbase.index.IndexCursor;
import org.logbase.log.LogPointer;
import org.logbase.log.LogRecord;
import org.logbase.sorted.BlockLoans;
import org.logbase.sorted.EntryIterator;
import org.logbase.sorted.SortedEntry;

/**
 * Reads a column group's versions through one {@link VersionCursor}: the in-memory index first
 * (what is not compacted yet), then the sorted segments newest first. A version found in several
 * (a segment written while the index still held it, until the switch) is returned once, from the
 * first. Without segments this is the index cursor alone.
 */
public final class GroupVersions {
  private GroupVersions() {}

  /** The versions of one row with timestamp at or below {@code asOf}, newest first. */
  static VersionCursor row(GroupIndex g, RecordStore store, byte[] key, long asOf) throws IOException {
    List<VersionCursor> all = new ArrayList<>();
    all.add(new IndexVersions(g.index().versions(key, asOf), store));
    for (SortedSegment s : g.segments()) {
      if (s.reader().mightContain(key)) {
        all.add(new SegmentVersions(s.reader().row(key, asOf)));
      }
    }
    return merged(all);
  }

  /**
   * The versions of the rows in [start, end) (null: unbounded), in entry order; the segments are
   * read sequentially (close the cursor unless it is read to its end).
   */
  static VersionCursor range(GroupIndex g, RecordStore store, byte[] start, byte[] end) {
    return range(g, store, start, end, null);
  }

  /**
   * The same; with {@code loans}, the values of the segments' versions are views of their blocks,
   * readable until the loans are released ({@link BlockLoans}); null: copies.
   */
  static VersionCursor range(GroupIndex g, RecordStore store, byte[] start, byte[] end, BlockLoans loans) {
    List<VersionCursor> all = new ArrayList<>();
    // An index that holds nothing (all of it compacted) is left out of the merge: what is written
    // from now on is newer than the read, as for a cursor that has passed its key.
    if (g.index().size() > 0 || g.segments().isEmpty()) {
      all.add(new IndexVersions(g.index().range(start, end), store));
    }
    for (SortedSegment s : g.segments()) {
      all.add(new SegmentVersions(loans == null ? s.reader().scan(start, end) : s.reader().scan(start, end, loans)));
    }
    return merged(all);
  }

  /** One cursor alone as it is (the usual case without segments), several merged. */
  private static VersionCursor merged(List<VersionCursor> all) {
    return all.size() == 1 ? all.get(0) : new Merged(all);
  }

  /** Index entries; the record behind one is read from the log when its contents are asked for. */
  private static final class IndexVersions implements VersionCursor {
    private final IndexCursor c;
    private final RecordStore store;
    private byte[] key;
    private LogRecord record;

    IndexVersions(IndexCursor c, RecordStore store) {
      this.c = c;
      this.store = store;
    }

    @Override
    public boolean next() {
      record = null;
      if (c.next()) {
        key = c.key();
        return true;
      }
      key = null;
      return false;
    }

    @Override
    public byte[] key() {
      return key;
    }

    @Override
    public long timestamp() {
      return c.timestamp();
    }

    @Override
    public boolean isTombstone() {
      return LogPointer.isTombstone(c.meta());
    }

    @Override
    public long txnId() throws IOException {
      return record().txnId();
    }

    @Override
    public List<LogRecord.Column> columns() throws IOException {
      return isTombstone() ? List.of() : record().columns();
    }

    private LogRecord record() throws IOException {
      if (record == null) {
        record = store.fetch(c.pointer(), c.meta());
      }
      return record;
    }

    @Override
    public void close() {}
  }

  /** Entries of a sorted segment: the versions themselves, read from its blocks. */
  private static final class SegmentVersions implements VersionCursor {
    private final EntryIterator it;
    private SortedEntry e;

    SegmentVersions(EntryIterator it) {
      this.it = it;
    }

    @Override
    public boolean next() throws IOException {
      e = it.hasNext() ? it.next() : null;
      return e != null;
    }

    @Override
    public byte[] key() {
      return e.rowKey();
    }

    @Override
    public long timestamp() {
      return e.timestamp();
    }

    @Override
    public boolean isTombstone() {
      return e.isTombstone();
    }

    @Override
    public long txnId() {
      return e.txnId();
    }

    @Override
    public List<LogRecord.Column> columns() {
      return e.columns();
    }

    @Override
    public void close() throws IOException {
      it.close();
    }
  }

  /** Several cursors in entry order; of versions with the same key and timestamp, the first source's. */
  private static final class Merged implements VersionCursor {
    private final List<VersionCursor> sources;
    private final boolean[] has;
    private boolean started;
    private int current = -1;

    Merged(List<VersionCursor> sources) {
      this.sources = sources;
      this.has = new boolean[sources.size()];
    }

    @Override
    public boolean next() throws IOException {
      if (!started) {
        for (int i = 0; i < has.length; i++) {
          has[i] = sources.get(i).next();
        }
        started = true;
      } else if (current >= 0) {
        byte[] k = key();
        long ts = timestamp();
        for (int i = 0; i < has.length; i++) {
          VersionCursor s = sources.get(i);
          if (has[i] && i != current && Arrays.equals(s.key(), k) && s.timestamp() == ts) {
            has[i] = s.next(); // the same version, already returned from an earlier source
          }
        }
        has[current] = sources.get(current).next();
      }
      current = -1;
      for (int i = 0; i < has.length; i++) {
        if (has[i] && (current < 0 || before(sources.get(i), sources.get(current)))) {
          current = i;
        }
      }
      return current >= 0;
    }

    private static boolean before(VersionCursor a, VersionCursor b) {
      return EntryOrder.compare(a.key(), a.timestamp(), b.key(), b.timestamp()) < 0;
    }

    @Override
    public byte[] key() {
      return sources.get(current).key();
    }

    @Override
    public long timestamp() {
      return sources.get(current).timestamp();
    }

    @Override
    public boolean isTombstone() {
      return sources.get(current).isTombstone();
    }

    @Override
    public long txnId() throws IOException {
      return sources.get(current).txnId();
    }

    @Override
    public List<LogRecord.Column> columns() throws IOException {
      return sources.get(current).columns();
    }

    @Override
    public void close() throws IOException {
      Closeables.closeAll(sources);
    }
  }
}
