package org.logbase.testing;

import java.util.List;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.TableSchema;
import org.logbase.tablet.TabletDescriptor;

/** The schemas tests and benchmarks share. */
public final class TestTables {
  /** Table "users": group 0 "profile" (name, email), group 1 "stats" (visits, score). */
  public static final TableSchema USERS = new TableSchema("users", 1, List.of(
      new ColumnGroup(0, "profile", List.of("name", "email")),
      new ColumnGroup(1, "stats", List.of("visits", "score"))));

  /** Table "kv": one group "d" with one column "v", for benchmarks. */
  public static final TableSchema KV = new TableSchema("kv", 2, List.of(new ColumnGroup(0, "d", List.of("v"))));

  private TestTables() {}

  /** The whole key space of a table as tablet 0. */
  public static TabletDescriptor whole(TableSchema s) {
    return new TabletDescriptor(s, 0, null, null);
  }
}
