package org.logbase.tablet;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.log.LogRecord;

/**
 * The versions a read may see under a column group's retention, from a cursor in entry order: per
 * row only its newest {@code maxVersions} (a delete counts as one), none past the time to live, and
 * none above the read's timestamp. Reads honour retention at once; compaction drops the same
 * versions later ({@code org.logbase.compaction}), so a read answers the same before and after.
 */
final class Retained implements VersionCursor {
  private final VersionCursor in;
  private final StoragePolicy policy;
  private final long nowMs;
  private final long asOf;
  private byte[] row;
  private int seen;

  private Retained(VersionCursor in, StoragePolicy policy, long nowMs, long asOf) {
    this.in = in;
    this.policy = policy;
    this.nowMs = nowMs;
    this.asOf = asOf;
  }

  /**
   * @param in every version of the rows (with maximum versions set, from the newest, not only those
   *     at or below {@code asOf}: the newer ones count)
   */
  static VersionCursor of(VersionCursor in, StoragePolicy policy, long nowMs, long asOf) {
    if (policy.maxVersions() == 0 && policy.ttlMs() == 0 && asOf == HybridTimestamp.LATEST) {
      return in;
    }
    return new Retained(in, policy, nowMs, asOf);
  }

  @Override
  public boolean next() throws IOException {
    while (in.next()) {
      if (row == null || !Arrays.equals(row, in.key())) {
        row = in.key();
        seen = 0;
      }
      seen++;
      if (policy.maxVersions() > 0 && seen > policy.maxVersions()) {
        continue; // beyond the newest maxVersions of its row
      }
      if (in.timestamp() > asOf || policy.expired(HybridTimestamp.wallMillis(in.timestamp()), nowMs)) {
        continue;
      }
      return true;
    }
    return false;
  }

  @Override
  public byte[] key() {
    return in.key();
  }

  @Override
  public long timestamp() {
    return in.timestamp();
  }

  @Override
  public boolean isTombstone() {
    return in.isTombstone();
  }

  @Override
  public long txnId() throws IOException {
    return in.txnId();
  }

  @Override
  public List<LogRecord.Column> columns() throws IOException {
    return in.columns();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
