package org.logbase.common.schema;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A named set of columns stored together: one index per (tablet, column group), one log record per
 * write of a row's columns in the group.
 *
 * @param id stable numeric id written into every log record of the group
 * @param name unique within the table
 * @param columns column names, unique within the whole table
 * @param policy retention and compression of its versions
 */
public record ColumnGroup(int id, String name, List<String> columns, StoragePolicy policy) {
  /** A group with the default policy (all versions, forever, LZ4). */
  public ColumnGroup(int id, String name, List<String> columns) {
    this(id, name, columns, StoragePolicy.DEFAULT);
  }

  public ColumnGroup {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(policy, "policy");
    SchemaNames.check("column group", name);
    columns = List.copyOf(columns);
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("column group '" + name + "' has no columns");
    }
    columns.forEach(c -> SchemaNames.check("column", c));
    Set<String> seen = new HashSet<>();
    for (String c : columns) {
      if (!seen.add(c)) {
        throw new IllegalArgumentException("column '" + c + "' appears twice in column group '" + name + "'");
      }
    }
    if (id < 0) {
      throw new IllegalArgumentException("column group id must be >= 0: " + id);
    }
  }

  /** The same group with another policy. */
  public ColumnGroup withPolicy(StoragePolicy p) {
    return new ColumnGroup(id, name, columns, p);
  }
}
