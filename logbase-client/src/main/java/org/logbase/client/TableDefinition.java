package org.logbase.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.StoragePolicy.BlockCompression;
import org.logbase.common.schema.TableSchema;

/**
 * What {@link Admin#createTable} creates: a table name and its column groups, e.g.
 * {@code TableDefinition.builder("users").columnGroup("profile", "name", "email").build()}.
 * Names and column uniqueness are checked when it is built. Each column group has a storage policy
 * (docs/client.md, "Retention"): {@link Builder#maxVersions}, {@link Builder#ttl} and
 * {@link Builder#compression} set it for the group added last, e.g.
 * {@code .columnGroup("history", "event").maxVersions(3).ttl(Duration.ofDays(7))}; unset, a group
 * keeps all versions, forever, compressed with LZ4.
 */
public final class TableDefinition {
  private final TableSchema schema;

  private TableDefinition(TableSchema schema) {
    this.schema = schema;
  }

  public static Builder builder(String table) {
    return new Builder(table);
  }

  /** The schema to send; its ids are placeholders that the master replaces. */
  public TableSchema schema() {
    return schema;
  }

  public String name() {
    return schema.name();
  }

  /** Collects column groups in order. */
  public static final class Builder {
    private final String table;
    private final List<ColumnGroup> groups = new ArrayList<>();

    private Builder(String table) {
      this.table = table;
    }

    public Builder columnGroup(String name, String... columns) {
      return columnGroup(name, Arrays.asList(columns));
    }

    public Builder columnGroup(String name, List<String> columns) {
      return columnGroup(name, columns, StoragePolicy.DEFAULT);
    }

    /** A column group with its storage policy. */
    public Builder columnGroup(String name, List<String> columns, StoragePolicy policy) {
      groups.add(new ColumnGroup(groups.size(), name, columns, policy));
      return this;
    }

    /**
     * The versions of a row the group added last keeps, newest first; 0: all.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxVersions(int versions) {
      return lastPolicy(p -> p.withMaxVersions(versions));
    }

    /**
     * How long the group added last keeps a version (by its timestamp); {@link Duration#ZERO}: forever.
     *
     * @throws IllegalArgumentException if negative or above {@link StoragePolicy#MAX_TTL_MS}
     */
    public Builder ttl(Duration ttl) {
      long ms = StoragePolicy.ttlMillis(ttl);
      return lastPolicy(p -> p.withTtlMs(ms));
    }

    /** How the group added last compresses the blocks of its sorted segments. */
    public Builder compression(BlockCompression compression) {
      return lastPolicy(p -> p.withCompression(compression));
    }

    private Builder lastPolicy(UnaryOperator<StoragePolicy> change) {
      if (groups.isEmpty()) {
        throw new IllegalStateException("add a column group before setting its policy");
      }
      ColumnGroup last = groups.get(groups.size() - 1);
      groups.set(groups.size() - 1, last.withPolicy(change.apply(last.policy())));
      return this;
    }

    /** @throws IllegalArgumentException for invalid names, no groups, or a column in two groups */
    public TableDefinition build() {
      return new TableDefinition(new TableSchema(table, 0, groups));
    }
  }
}
