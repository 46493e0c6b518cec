package org.logbase.shell;

import picocli.CommandLine.Command;

@Command(name = "drop", description = "Drops a table and all its data (asks first unless --yes).")
final class DropCommand extends TableCommand.Confirmed {
  @Override
  void run() {
    if (confirm("Drop table '" + table + "' and all its data?", "not dropped")) {
      client().admin().dropTable(table);
      printer().line("dropped table " + table);
    }
  }
}
