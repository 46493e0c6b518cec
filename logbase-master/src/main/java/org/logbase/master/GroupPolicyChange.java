package org.logbase.master;

import java.util.List;
import org.logbase.common.Echo;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.StoragePolicy.BlockCompression;
import org.logbase.rpc.AlterColumnGroupRequest;
import org.logbase.rpc.ColumnGroupSpec;
import org.logbase.rpc.TableSpec;

/**
 * A change of one column group's storage policy as an {@link AlterColumnGroupRequest} asks it:
 * checked (the group exists, something is set, every value is in bounds) and applied to a schema.
 * Refusals are {@link InvalidRequestException}s that quote the caller's input bounded.
 */
final class GroupPolicyChange {
  /** Characters of the list of a table's groups an error message shows at most. */
  private static final int MAX_GROUP_LIST = 256;

  private GroupPolicyChange() {}

  /** Refuses a request that changes nothing, before anything is read. */
  static void checkSomethingSet(AlterColumnGroupRequest r) {
    if (!r.hasMaxVersions() && !r.hasTtlMs() && !r.hasCompression()) {
      throw new InvalidRequestException("nothing to change in column group '" + Echo.of(r.getColumnGroup())
          + "' of table '" + Echo.of(r.getTable()) + "': set max versions, ttl or compression");
    }
  }

  /** The schema with the request's group under its new policy. */
  static TableSpec apply(TableSpec spec, AlterColumnGroupRequest r) {
    List<ColumnGroupSpec> groups = spec.getColumnGroupsList();
    for (int i = 0; i < groups.size(); i++) {
      if (groups.get(i).getName().equals(r.getColumnGroup())) {
        ColumnGroup g = SchemaProtos.fromProto(groups.get(i));
        return spec.toBuilder().setColumnGroups(i, SchemaProtos.toProto(g.withPolicy(policy(g, r, spec)))).build();
      }
    }
    List<String> names = groups.stream().map(ColumnGroupSpec::getName).toList();
    throw new InvalidRequestException("table '" + spec.getName() + "' has no column group '"
        + Echo.of(r.getColumnGroup()) + "' (its groups: " + Echo.cut(String.join(", ", names), MAX_GROUP_LIST) + ")");
  }

  private static StoragePolicy policy(ColumnGroup g, AlterColumnGroupRequest r, TableSpec spec) {
    StoragePolicy p = g.policy();
    try {
      if (r.hasMaxVersions()) {
        p = p.withMaxVersions(r.getMaxVersions());
      }
      if (r.hasTtlMs()) {
        p = p.withTtlMs(r.getTtlMs());
      }
      if (r.hasCompression()) {
        p = p.withCompression(BlockCompression.parse(r.getCompression()));
      }
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("column group '" + g.name() + "' of table '" + spec.getName() + "': "
          + e.getMessage());
    }
    return p;
  }
}
