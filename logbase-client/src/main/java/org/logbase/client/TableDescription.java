package org.logbase.client;

import java.util.List;
import org.logbase.common.schema.TableSchema;

/** A table as the master describes it: its schema and its tablets in key order. */
public record TableDescription(TableSchema schema, List<TabletInfo> tablets) {
  public TableDescription {
    tablets = List.copyOf(tablets);
  }

  public String name() {
    return schema.name();
  }
}
