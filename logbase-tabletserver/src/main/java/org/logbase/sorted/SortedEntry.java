package org.logbase.sorted;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.logbase.common.Bytes;
import org.logbase.index.EntryOrder;
import org.logbase.log.LogRecord.Column;
import org.logbase.log.RecordType;

/**
 * One version of a row in one column group: a row key, a hybrid timestamp, and either the columns
 * written (kind DATA) or a deletion (kind TOMBSTONE, no columns), the kinds and codes of log
 * records. Entries are ordered by {@link #ORDER}; equality compares keys and values by content.
 *
 * @param txnId the transaction that wrote the version (0: it committed by itself); kept so that a
 *     transaction's primary row still answers whether it committed (docs/transactions.md)
 */
@SuppressWarnings("ArrayRecordComponent") // equals and hashCode compare keys and values by content
public record SortedEntry(byte[] rowKey, long timestamp, RecordType kind, long txnId, List<Column> columns) {

  /** Row key ascending (unsigned bytes), then timestamp descending: a row's versions newest first. */
  public static final Comparator<SortedEntry> ORDER =
      (a, b) -> EntryOrder.compare(a.rowKey, a.timestamp, b.rowKey, b.timestamp);

  public SortedEntry {
    Objects.requireNonNull(rowKey, "rowKey");
    if (kind == null || !kind.isRowVersion()) {
      throw new IllegalArgumentException("an entry is DATA or TOMBSTONE, not " + kind);
    }
    columns = List.copyOf(columns);
    if (kind == RecordType.TOMBSTONE && !columns.isEmpty()) {
      throw new IllegalArgumentException("a tombstone carries no columns");
    }
  }

  /** A version written outside a transaction. */
  public SortedEntry(byte[] rowKey, long timestamp, RecordType kind, List<Column> columns) {
    this(rowKey, timestamp, kind, 0, columns);
  }

  public static SortedEntry data(byte[] rowKey, long timestamp, List<Column> columns) {
    return new SortedEntry(rowKey, timestamp, RecordType.DATA, columns);
  }

  public static SortedEntry tombstone(byte[] rowKey, long timestamp) {
    return new SortedEntry(rowKey, timestamp, RecordType.TOMBSTONE, List.of());
  }

  public boolean isTombstone() {
    return kind == RecordType.TOMBSTONE;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SortedEntry e)) {
      return false;
    }
    if (timestamp != e.timestamp || kind != e.kind || txnId != e.txnId || !Arrays.equals(rowKey, e.rowKey)
        || columns.size() != e.columns.size()) {
      return false;
    }
    for (int i = 0; i < columns.size(); i++) {
      Column a = columns.get(i);
      Column b = e.columns.get(i);
      if (!a.name().equals(b.name()) || !Arrays.equals(a.value(), b.value())) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = Arrays.hashCode(rowKey) * 31 + Long.hashCode(timestamp);
    for (Column c : columns) {
      h = h * 31 + c.name().hashCode() * 17 + Arrays.hashCode(c.value());
    }
    return (h * 31 + kind.hashCode()) * 31 + Long.hashCode(txnId);
  }

  /** Key, timestamp and kind; columns by name and value length (values may be large). */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    sb.append(Bytes.toStringBinary(rowKey)).append('@').append(timestamp).append(' ').append(kind);
    for (Column c : columns) {
      sb.append(' ').append(c.name()).append('[').append(c.value().length).append(']');
    }
    return sb.toString();
  }
}
