package org.logbase.tablet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.logbase.common.Bytes;
import org.logbase.common.Cells;
import org.logbase.common.Closeables;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.KeyOutOfRangeException;
import org.logbase.common.SnapshotTooOldException;
import org.logbase.common.Row;
import org.logbase.common.ValueTooLargeException;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.TableSchema;
import org.logbase.log.LogRecord;
import org.logbase.sorted.BlockInfo;
import org.logbase.sorted.BlockLoans;

/**
 * A key range of a table, served from one multiversion index per column group and the shared log.
 *
 * <p>Writes are blind and append-only: a put writes one record per column group it touches, a
 * delete a tombstone per column group; several records of one write commit atomically (they share
 * a group id and end with a COMMIT record in the same flush). The tablet makes the records
 * ({@link #putRecords}, {@link #deleteRecords}); writing them is the transaction layer's one write
 * path ({@code org.logbase.txn.TxnManager#write}), which locks the rows and takes the timestamps. Reads merge a column group's versions
 * newest first until every requested column is found or a tombstone ends the row.
 */
public final class Tablet {
  /** Rows {@link #scan} reads between two releases of its scanner: the blocks it holds meanwhile. */
  private static final int SCAN_PAGE_ROWS = 500;

  private final TabletDescriptor descriptor;
  private final TableSchema schema;
  private final GroupIndex[] groups;
  private final RecordStore store;
  private final TimestampSource clock;
  private final TabletLimits limits;
  private final WriteGate gate;
  private final LongAdder requests = new LongAdder();

  /** @param groups group indexes by column-group id (array index = id; ids without a group are null) */
  public Tablet(
      TabletDescriptor descriptor, GroupIndex[] groups, RecordStore store, TimestampSource clock, TabletLimits limits) {
    this(descriptor, groups, store, clock, limits, new WriteGate());
  }

  /** A tablet that keeps {@code gate}: the same tablet as before with a changed schema. */
  public Tablet(TabletDescriptor descriptor, GroupIndex[] groups, RecordStore store, TimestampSource clock,
      TabletLimits limits, WriteGate gate) {
    this.gate = gate;
    this.descriptor = descriptor;
    this.schema = descriptor.schema();
    this.groups = groups.clone();
    this.store = store;
    this.clock = clock;
    this.limits = limits;
  }

  public TabletDescriptor descriptor() {
    return descriptor;
  }

  /** Whether this tablet still takes writes here (see {@link WriteGate}). */
  public WriteGate gate() {
    return gate;
  }

  /**
   * The log records of a put: one DATA record per column group written. When several groups are
   * written and {@code txnId} is 0, they share the id {@code ts} and need a COMMIT to become
   * visible, like the records of a transaction.
   *
   * @param ts the version's timestamp (for a prepared transaction, a placeholder: the COMMIT
   *     record's timestamp is what the index gets)
   */
  public List<LogRecord> putRecords(byte[] key, Map<String, byte[]> columns, long ts, long txnId) {
    checkKey(key);
    checkColumns(columns);
    Map<ColumnGroup, List<LogRecord.Column>> byGroup = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> e : columns.entrySet()) {
      byGroup.computeIfAbsent(schema.groupOf(e.getKey()), g -> new ArrayList<>())
          .add(new LogRecord.Column(e.getKey(), e.getValue()));
    }
    long txn = txnId != 0 ? txnId : byGroup.size() > 1 ? ts : 0;
    List<LogRecord> records = new ArrayList<>(byGroup.size() + 1);
    byGroup.forEach((g, cols) -> records.add(
        LogRecord.data(ts, txn, schema.id(), descriptor.tabletId(), g.id(), key, cols)));
    return records;
  }

  /** The log records of a delete: a tombstone per column group (see {@link #putRecords}). */
  public List<LogRecord> deleteRecords(byte[] key, long ts, long txnId) {
    checkKey(key);
    List<ColumnGroup> all = schema.columnGroups();
    long txn = txnId != 0 ? txnId : all.size() > 1 ? ts : 0;
    List<LogRecord> records = new ArrayList<>(all.size() + 1);
    for (ColumnGroup g : all) {
      records.add(LogRecord.tombstone(ts, txn, schema.id(), descriptor.tabletId(), g.id(), key));
    }
    return records;
  }

  private void checkColumns(Map<String, byte[]> columns) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a put needs at least one column");
    }
    for (Map.Entry<String, byte[]> e : columns.entrySet()) {
      byte[] v = e.getValue();
      if (v == null) {
        throw new IllegalArgumentException("column '" + e.getKey() + "' has a null value; use delete");
      }
      if (v.length > limits.maxValueBytes()) {
        throw new ValueTooLargeException("value of column '" + e.getKey() + "'", v.length, limits.maxValueBytes());
      }
      schema.groupOf(e.getKey());
    }
  }

  /**
   * The records of one write from {@link #putRecords} or {@link #deleteRecords} (transaction id 0),
   * with the COMMIT record that makes them visible together when they span column groups.
   */
  public static List<LogRecord> withCommit(List<LogRecord> records, long ts) {
    long group = records.get(0).txnId();
    if (group == 0) {
      return records;
    }
    List<LogRecord> out = new ArrayList<>(records);
    out.add(LogRecord.commit(ts, group));
    return out;
  }

  /**
   * Reads a row as of {@code asOf} (use {@link org.logbase.common.HybridTimestamp#LATEST} for the
   * newest).
   *
   * @param columns the columns to return; null for all
   * @return the row, or null if it has no visible column
   */
  public Row get(byte[] key, Collection<String> columns, long asOf) throws IOException {
    checkKey(key);
    Cells.Builder cells = Cells.builder(columns == null ? 4 : columns.size());
    long now = clock.wallMillis();
    for (Map.Entry<ColumnGroup, Set<String>> e : wanted(columns).entrySet()) {
      try (VersionCursor c = visible(e.getKey(), key, asOf, now)) {
        merge(c, e.getValue(), cells);
      }
    }
    return cells.isEmpty() ? null : new Row(key, cells.build());
  }

  /**
   * The versions of a row in a group that a read as of {@code asOf} may see, newest first: those at
   * or below {@code asOf}, within the group's retention (its newest {@code maxVersions}, a delete
   * counting as one; not past its time to live).
   *
   * @throws SnapshotTooOldException if {@code asOf} is below the group's GC horizon
   */
  private VersionCursor visible(ColumnGroup g, byte[] key, long asOf, long nowMs) throws IOException {
    GroupIndex gi = groupIndex(g);
    checkHorizon(gi, asOf);
    StoragePolicy p = g.policy();
    if (p.maxVersions() == 0) {
      return Retained.of(GroupVersions.row(gi, store, key, asOf), p, nowMs, asOf);
    }
    return Retained.of(GroupVersions.row(gi, store, key, HybridTimestamp.LATEST), p, nowMs, asOf);
  }

  private void checkHorizon(GroupIndex gi, long asOf) {
    if (asOf < gi.gcHorizon()) {
      throw new SnapshotTooOldException("a read as of " + HybridTimestamp.toString(asOf) + " is below the GC horizon "
          + HybridTimestamp.toString(gi.gcHorizon()) + " of " + gi + ": versions it would see may be gone");
    }
  }

  /**
   * Rows with startInclusive <= key < endExclusive (null = the tablet's bound), in key order, as of
   * {@code asOf}; deleted rows and rows without a requested column are left out. The rows own their
   * values (read a page at a time, each row copied before the scan is released).
   *
   * @param limit at most this many rows; 0 or less for no limit
   */
  public List<Row> scan(byte[] startInclusive, byte[] endExclusive, Collection<String> columns, long asOf, int limit)
      throws IOException {
    int want = limit <= 0 ? Integer.MAX_VALUE : limit;
    List<Row> out = new ArrayList<>(Math.min(want, SCAN_PAGE_ROWS));
    try (RowScanner s = openScan(startInclusive, endExclusive, columns, asOf)) {
      while (out.size() < want && !s.exhausted()) {
        for (Row r : s.next(Math.min(want - out.size(), SCAN_PAGE_ROWS))) {
          out.add(r.owned());
        }
        s.release();
      }
    }
    return out;
  }

  /**
   * The same rows, page by page: a scanner that keeps its cursors open between pages (a server's
   * scan call reads its batches through one), whose rows may view its blocks until it is released
   * ({@link RowScanner}). Close it unless it is read to its end.
   *
   * @throws SnapshotTooOldException if {@code asOf} is below a requested group's GC horizon
   */
  public RowScanner openScan(byte[] startInclusive, byte[] endExclusive, Collection<String> columns, long asOf)
      throws IOException {
    byte[] start = maxStart(startInclusive, descriptor.startKey());
    byte[] end = minEnd(endExclusive, descriptor.endKey());
    if (start != null && end != null && Bytes.compare(start, end) >= 0) {
      return RowScanner.empty();
    }
    Map<ColumnGroup, Set<String>> wanted = wanted(columns);
    for (ColumnGroup g : wanted.keySet()) {
      checkHorizon(groupIndex(g), asOf);
    }
    List<RowScanner.GroupScan> scans = new ArrayList<>();
    BlockLoans loans = new BlockLoans();
    long now = clock.wallMillis();
    try {
      for (Map.Entry<ColumnGroup, Set<String>> e : wanted.entrySet()) {
        VersionCursor all = GroupVersions.range(groupIndex(e.getKey()), store, start, end, loans);
        scans.add(new RowScanner.GroupScan(Retained.of(all, e.getKey().policy(), now, asOf), e.getValue()));
      }
    } catch (Throwable e) { // the cursors opened so far go back; the failure stays the one thrown
      Closeables.closeAllAfter(scans, e);
      throw e;
    }
    return new RowScanner(scans, loans);
  }

  /** Counts a request that named this tablet (its server reports the count: {@link #requests}). */
  public void noteRequest() {
    requests.increment();
  }

  /** Requests that named this tablet since it was opened here (or its schema last changed). */
  public long requests() {
    return requests.sum();
  }

  private long entriesInRange(SortedSegment seg) {
    if (descriptor.startKey() == null && descriptor.endKey() == null) {
      return seg.reader().stats().entryCount();
    }
    long n = 0;
    byte[] previousLast = null;
    for (BlockInfo b : seg.reader().blocks()) {
      // The block holds keys in (previousLast, b.lastKey]: it overlaps [start, end) unless it ends
      // before start or begins at or after end.
      boolean endsBefore = descriptor.startKey() != null && Bytes.compare(b.lastKey(), descriptor.startKey()) < 0;
      boolean beginsAfter = descriptor.endKey() != null && previousLast != null
          && Bytes.compare(previousLast, descriptor.endKey()) >= 0;
      if (!endsBefore && !beginsAfter) {
        n += b.entryCount();
      }
      previousLast = b.lastKey();
    }
    return n;
  }

  /**
   * The highest GC horizon of its column groups: versions a snapshot below it could read may be gone
   * (0: nothing dropped yet).
   */
  public long gcHorizon() {
    long h = 0;
    for (GroupIndex g : groups) {
      if (g != null) {
        h = Math.max(h, g.gcHorizon());
      }
    }
    return h;
  }

  /** Row versions in this tablet's in-memory indexes: written since its last compaction. */
  public long unsortedVersions() {
    long n = 0;
    for (GroupIndex g : groups) {
      if (g != null) {
        n += g.index().size();
      }
    }
    return n;
  }

  /**
   * Row versions in this tablet's indexes and sorted segments, all column groups: its size, as
   * splits measure it. Of a segment a daughter shares with its sibling, the entries of the blocks
   * that overlap its range count (to within a block at each end).
   */
  public long versions() {
    long n = unsortedVersions();
    for (GroupIndex g : groups) {
      if (g != null) {
        for (SortedSegment seg : g.segments()) {
          n += entriesInRange(seg);
        }
      }
    }
    return n;
  }

  /**
   * A timestamp to read a consistent snapshot at: above every write acknowledged so far. Scans that
   * page through a tablet read all pages at one such timestamp.
   */
  public long snapshotTimestamp() {
    return clock.next();
  }

  /**
   * The timestamp of the row's newest committed version in any column group, or 0 if it has none.
   *
   * @throws UncheckedIOException if a sorted segment cannot be read
   */
  public long newestTimestamp(byte[] key) {
    checkKey(key);
    long newest = 0;
    try {
      for (ColumnGroup g : schema.columnGroups()) {
        try (VersionCursor c = GroupVersions.row(groupIndex(g), store, key, HybridTimestamp.LATEST)) {
          if (c.next()) {
            newest = Math.max(newest, c.timestamp());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading the newest version of " + Bytes.toStringBinary(key) + " failed", e);
    }
    return newest;
  }

  /**
   * The commit timestamp of transaction {@code txnId}'s version of a row, or -1 if the row has none:
   * how the primary's server tells a committed transaction from an aborted one after the fact.
   * Compaction keeps transactions' versions for this (docs/transactions.md).
   */
  public long commitTimestampOf(byte[] key, long txnId) throws IOException {
    checkKey(key);
    for (ColumnGroup g : schema.columnGroups()) {
      try (VersionCursor c = GroupVersions.row(groupIndex(g), store, key, HybridTimestamp.LATEST)) {
        // Versions are newest first and a commit comes after its start: stop below the start.
        while (c.next() && c.timestamp() > txnId) {
          if (c.txnId() == txnId) {
            return c.timestamp();
          }
        }
      }
    }
    return -1;
  }

  /** Versions of a row in one column group with timestamp <= asOf, newest first, as retention keeps them. */
  public List<Version> versions(byte[] key, String columnGroup, long asOf, int maxVersions) throws IOException {
    checkKey(key);
    ColumnGroup g = schema.columnGroups().stream()
        .filter(x -> x.name().equals(columnGroup))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(
            "table '" + schema.name() + "' has no column group '" + columnGroup + "'"));
    List<Version> out = new ArrayList<>();
    try (VersionCursor c = visible(g, key, asOf, clock.wallMillis())) {
      while ((maxVersions <= 0 || out.size() < maxVersions) && c.next()) {
        if (c.isTombstone()) {
          out.add(new Version(c.timestamp(), true, Map.of()));
          continue;
        }
        Map<String, byte[]> cols = new LinkedHashMap<>();
        c.columns().forEach(col -> cols.put(col.name(), col.value()));
        out.add(new Version(c.timestamp(), false, cols));
      }
    }
    return out;
  }

  /** Reads versions from the cursor (one row, newest first) until all wanted columns are found or a tombstone. */
  private static void merge(VersionCursor c, Set<String> wanted, Cells.Builder out) throws IOException {
    int missing = wanted.size();
    while (missing > 0 && c.next()) {
      if (c.isTombstone()) {
        return;
      }
      missing -= collect(c.columns(), c.timestamp(), wanted, out);
    }
  }

  /**
   * Moves the wanted columns that {@code out} does not hold yet into it (a row's versions come
   * newest first, and the groups' columns are disjoint); returns how many it moved.
   */
  static int collect(List<LogRecord.Column> columns, long ts, Set<String> wanted, Cells.Builder out) {
    int moved = 0;
    for (LogRecord.Column col : columns) {
      if (wanted.contains(col.name()) && out.addIfAbsent(col.name(), col.cell(ts))) {
        moved++;
      }
    }
    return moved;
  }

  private Map<ColumnGroup, Set<String>> wanted(Collection<String> columns) {
    Map<ColumnGroup, Set<String>> out = new LinkedHashMap<>();
    if (columns == null) {
      for (ColumnGroup g : schema.columnGroups()) {
        out.put(g, new HashSet<>(g.columns()));
      }
      return out;
    }
    for (String c : columns) {
      out.computeIfAbsent(schema.groupOf(c), g -> new HashSet<>()).add(c);
    }
    return out;
  }

  /**
   * A key that splits this tablet's versions about in half (counted in the index of its first column
   * group that has any), for a split that names no key; null when no key other than the tablet's
   * first one holds versions (nothing to split). One pass over that index.
   */
  public byte[] middleKey() throws IOException {
    for (ColumnGroup g : schema.columnGroups()) {
      GroupIndex gi = groupIndex(g);
      if (gi == null) {
        continue;
      }
      long n = 0;
      try (VersionCursor c = GroupVersions.range(gi, store, descriptor.startKey(), descriptor.endKey())) {
        while (c.next()) {
          n++;
        }
      }
      if (n == 0) {
        continue;
      }
      try (VersionCursor c = GroupVersions.range(gi, store, descriptor.startKey(), descriptor.endKey())) {
        byte[] first = null;
        for (long i = 0; c.next(); i++) {
          if (first == null) {
            first = c.key();
          }
          if (i >= n / 2 && Bytes.compare(c.key(), first) != 0) {
            return c.key().clone();
          }
        }
      }
      return null;
    }
    return null;
  }


  private GroupIndex groupIndex(ColumnGroup g) {
    return groups[g.id()];
  }

  private void checkKey(byte[] key) {
    if (key == null || key.length == 0) {
      throw new IllegalArgumentException("row key must not be empty");
    }
    if (key.length > limits.maxKeyBytes()) {
      throw new ValueTooLargeException("row key", key.length, limits.maxKeyBytes());
    }
    if (!descriptor.contains(key)) {
      throw new KeyOutOfRangeException(
          "row " + Bytes.toStringBinary(key) + " is outside tablet " + descriptor);
    }
  }

  private static byte[] maxStart(byte[] a, byte[] b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return Bytes.compare(a, b) >= 0 ? a : b;
  }

  private static byte[] minEnd(byte[] a, byte[] b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return Bytes.compare(a, b) <= 0 ? a : b;
  }

  @Override
  public String toString() {
    return "Tablet " + descriptor;
  }
}
