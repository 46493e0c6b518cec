package org.logbase.client;

import java.time.Duration;
import java.util.Locale;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.StoragePolicy.BlockCompression;
import org.logbase.rpc.AlterColumnGroupRequest;

/**
 * A change of a column group's storage policy for {@link Admin#alterColumnGroup}: the settings
 * given change, the others keep their value, e.g.
 * {@code PolicyChange.builder().maxVersions(3).ttl(Duration.ofDays(7)).build()}.
 */
public final class PolicyChange {
  private final Integer maxVersions;
  private final Long ttlMs;
  private final BlockCompression compression;

  private PolicyChange(Builder b) {
    this.maxVersions = b.maxVersions;
    this.ttlMs = b.ttlMs;
    this.compression = b.compression;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The request that makes this change to {@code group} of {@code table}. */
  AlterColumnGroupRequest toRequest(String table, String group) {
    AlterColumnGroupRequest.Builder r = AlterColumnGroupRequest.newBuilder().setTable(table).setColumnGroup(group);
    if (maxVersions != null) {
      r.setMaxVersions(maxVersions);
    }
    if (ttlMs != null) {
      r.setTtlMs(ttlMs);
    }
    if (compression != null) {
      r.setCompression(compression.name().toLowerCase(Locale.ROOT));
    }
    return r.build();
  }

  /** Collects the settings to change; each is checked as it is set. */
  public static final class Builder {
    private Integer maxVersions;
    private Long ttlMs;
    private BlockCompression compression;

    private Builder() {}

    /**
     * Versions of a row kept, newest first; 0: all.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxVersions(int versions) {
      this.maxVersions = StoragePolicy.DEFAULT.withMaxVersions(versions).maxVersions();
      return this;
    }

    /**
     * How long a version is kept (by its timestamp); {@link Duration#ZERO}: forever.
     *
     * @throws IllegalArgumentException if negative or above {@link StoragePolicy#MAX_TTL_MS}
     */
    public Builder ttl(Duration ttl) {
      this.ttlMs = StoragePolicy.ttlMillis(ttl);
      return this;
    }

    /** How the group's sorted segments compress their blocks. */
    public Builder compression(BlockCompression compression) {
      if (compression == null) {
        throw new IllegalArgumentException("compression must be none, lz4 or zstd, not null");
      }
      this.compression = compression;
      return this;
    }

    /** @throws IllegalStateException if nothing is set */
    public PolicyChange build() {
      if (maxVersions == null && ttlMs == null && compression == null) {
        throw new IllegalStateException("a policy change sets max versions, ttl or compression");
      }
      return new PolicyChange(this);
    }
  }
}
