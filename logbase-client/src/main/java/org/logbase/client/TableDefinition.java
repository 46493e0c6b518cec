package org.logbase.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.TableSchema;

/**
 * What {@link Admin#createTable} creates: a table name and its column groups, e.g.
 * {@code TableDefinition.builder("users").columnGroup("profile", "name", "email").build()}.
 * Names and column uniqueness are checked when it is built.
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
      groups.add(new ColumnGroup(groups.size(), name, columns));
      return this;
    }

    /** @throws IllegalArgumentException for invalid names, no groups, or a column in two groups */
    public TableDefinition build() {
      return new TableDefinition(new TableSchema(table, 0, groups));
    }
  }
}
