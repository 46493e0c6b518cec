package org.logbase.common.schema;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.logbase.common.ColumnNotInSchemaException;

/**
 * A table: a name, a numeric id written into log records, and its column groups. Column names are
 * unique across the table, so a column alone names its group.
 */
public final class TableSchema {
  private final String name;
  private final int id;
  private final List<ColumnGroup> groups;
  private final Map<String, ColumnGroup> groupOfColumn = new HashMap<>();
  private final Map<Integer, ColumnGroup> groupById = new HashMap<>();
  /** {@link SchemaProtos#fingerprint} of the groups, computed at its first use (0: not yet). */
  private volatile long fingerprint;

  public TableSchema(String name, int id, List<ColumnGroup> groups) {
    SchemaNames.check("table", name);
    if (groups.isEmpty()) {
      throw new IllegalArgumentException("table '" + name + "' needs at least one column group");
    }
    this.name = name;
    this.id = id;
    this.groups = List.copyOf(groups);
    Set<String> groupNames = new HashSet<>();
    for (ColumnGroup g : this.groups) {
      if (!groupNames.add(g.name())) {
        throw new IllegalArgumentException("table '" + name + "': column group '" + g.name() + "' appears twice");
      }
      if (groupById.put(g.id(), g) != null) {
        throw new IllegalArgumentException("table '" + name + "': two column groups have id " + g.id());
      }
      for (String c : g.columns()) {
        if (groupOfColumn.put(c, g) != null) {
          throw new IllegalArgumentException(
              "table '" + name + "': column '" + c + "' appears in more than one column group");
        }
      }
    }
  }

  /**
   * Checks a table name a request gives before anything looks it up.
   *
   * @throws IllegalArgumentException saying what a name may be, with the name cut short
   */
  public static void checkTableName(String name) {
    SchemaNames.check("table", name);
  }

  public String name() {
    return name;
  }

  public int id() {
    return id;
  }

  public List<ColumnGroup> columnGroups() {
    return groups;
  }

  /** The group holding {@code column}; throws the user-facing error when the schema lacks it. */
  public ColumnGroup groupOf(String column) {
    ColumnGroup g = groupOfColumn.get(column);
    if (g == null) {
      throw new ColumnNotInSchemaException(name, column);
    }
    return g;
  }

  /** {@link SchemaProtos#fingerprint} of its column groups. */
  public long fingerprint() {
    long f = fingerprint;
    if (f == 0) {
      f = SchemaProtos.fingerprint(groups);
      fingerprint = f;
    }
    return f;
  }

  public Optional<ColumnGroup> groupById(int groupId) {
    return Optional.ofNullable(groupById.get(groupId));
  }

  @Override
  public String toString() {
    return "TableSchema{" + name + "#" + id + ", " + groups + "}";
  }
}
