package org.logbase.client;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.logbase.common.Bytes;
import org.logbase.common.ColumnCondition;
import org.logbase.common.HybridTimestamp;

/**
 * What a {@link Table#scan} reads: rows with keys in [start, end) (empty = unbounded), the columns
 * wanted (none = all), as of a timestamp, at most {@code limit} rows (0 = all).
 * {@code batchRows} sets the rows per streamed batch (0 = server default); {@code prefetchTablets}
 * how many tablets stream at once (0 = {@link ClientConfig#SCAN_PREFETCH_TABLETS}). {@code filter},
 * if not null, lets through only the rows whose column holds a value (or a prefix): the tablet
 * servers evaluate it, so the rows it refuses do not travel; {@code limit} counts the rows it lets
 * through. {@code reverse} returns the last {@code limit} rows of the range, last first: it needs a
 * limit of 1 to {@link #MAX_REVERSE_LIMIT}, and each tablet reads its part of the range forwards,
 * keeping that many rows (the index is read in key order only), so its cost grows with the range.
 */
public record ScanSpec(byte[] start, byte[] end, List<String> columns, long asOf, int limit, int batchRows,
    int prefetchTablets, ColumnCondition filter, boolean reverse) {
  /** The largest limit of a reverse scan (its tablet servers keep that many rows in memory). */
  public static final int MAX_REVERSE_LIMIT = 10_000;

  public ScanSpec {
    Objects.requireNonNull(start, "start (empty for unbounded)");
    Objects.requireNonNull(end, "end (empty for unbounded)");
    columns = List.copyOf(columns);
    if (limit < 0 || batchRows < 0 || prefetchTablets < 0) {
      throw new IllegalArgumentException("limit, batchRows and prefetchTablets must be >= 0");
    }
    if (reverse && (limit < 1 || limit > MAX_REVERSE_LIMIT)) {
      throw new IllegalArgumentException("a reverse scan needs a limit of 1 to " + MAX_REVERSE_LIMIT + " rows, not "
          + limit);
    }
  }

  /** Every row, all columns, newest versions. */
  public static ScanSpec all() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link ScanSpec}; everything is optional. */
  public static final class Builder {
    private byte[] start = new byte[0];
    private byte[] end = new byte[0];
    private List<String> columns = List.of();
    private long asOf = HybridTimestamp.LATEST;
    private int limit;
    private int batchRows;
    private int prefetchTablets;
    private ColumnCondition filter;
    private boolean reverse;

    private Builder() {}

    /** First key, inclusive. */
    public Builder start(byte[] key) {
      this.start = key.clone();
      return this;
    }

    /** Key to stop before, exclusive. */
    public Builder end(byte[] key) {
      this.end = key.clone();
      return this;
    }

    /** The rows whose keys start with {@code prefix}: sets start and end. */
    public Builder keyPrefix(byte[] prefix) {
      this.start = prefix.clone();
      this.end = Bytes.prefixEnd(prefix);
      return this;
    }

    /** Only the rows whose {@code column} holds exactly {@code value} (evaluated on the servers). */
    public Builder valueEquals(String column, byte[] value) {
      this.filter = new ColumnCondition(column, value, false);
      return this;
    }

    /** Only the rows whose {@code column} holds a value starting with {@code prefix} (on the servers). */
    public Builder valuePrefix(String column, byte[] prefix) {
      this.filter = new ColumnCondition(column, prefix, true);
      return this;
    }

    /** The last {@code limit} rows of the range, last first (see {@link ScanSpec}). */
    public Builder reverse(boolean reverse) {
      this.reverse = reverse;
      return this;
    }

    /** The filter as a whole (null: none). */
    public Builder filter(ColumnCondition condition) {
      this.filter = condition;
      return this;
    }

    public Builder columns(String... columns) {
      return columns(Arrays.asList(columns));
    }

    public Builder columns(Collection<String> columns) {
      this.columns = List.copyOf(columns);
      return this;
    }

    /** Read the table as of this hybrid timestamp ({@link HybridTimestamp#LATEST} or 0: newest). */
    public Builder asOf(long timestamp) {
      this.asOf = timestamp;
      return this;
    }

    public Builder limit(int rows) {
      this.limit = rows;
      return this;
    }

    public Builder batchRows(int rows) {
      this.batchRows = rows;
      return this;
    }

    public Builder prefetchTablets(int tablets) {
      this.prefetchTablets = tablets;
      return this;
    }

    public ScanSpec build() {
      return new ScanSpec(start, end, columns, asOf, limit, batchRows, prefetchTablets, filter, reverse);
    }
  }
}
