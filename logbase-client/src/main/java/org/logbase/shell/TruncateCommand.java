package org.logbase.shell;

import org.logbase.client.TableDescription;
import picocli.CommandLine.Command;

@Command(name = "truncate", description = {
    "Deletes all rows of a table, keeping its schema.",
    "Drops the table and creates it again with the same column groups and split keys.",
    "Older snapshots of it are gone too. Asks first unless --yes."})
final class TruncateCommand extends TableCommand.Confirmed {
  @Override
  void run() {
    if (confirm("Delete all rows of table '" + table + "'?", "not truncated")) {
      TableDescription d = client().admin().truncateTable(table);
      printer().line("truncated table " + d.name() + ": empty, " + d.tablets().size() + " tablet"
          + (d.tablets().size() == 1 ? "" : "s"));
    }
  }
}
