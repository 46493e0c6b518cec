package org.logbase.client;

import java.util.List;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.TableSchema;

/**
 * A table as the master describes it: its schema (column groups with their storage policies) and
 * its tablets in key order.
 */
public record TableDescription(TableSchema schema, List<TabletInfo> tablets) {
  public TableDescription {
    tablets = List.copyOf(tablets);
  }

  public String name() {
    return schema.name();
  }

  /**
   * The storage policy of a column group: versions kept, time to live, compression.
   *
   * @throws IllegalArgumentException if the table has no such group
   */
  public StoragePolicy policy(String group) {
    return schema.columnGroups().stream().filter(g -> g.name().equals(group)).map(ColumnGroup::policy).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("table " + name() + " has no column group " + group));
  }
}
