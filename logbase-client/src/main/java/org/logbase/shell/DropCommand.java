package org.logbase.shell;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "drop", description = "Drops a table and all its data (asks first unless --yes).")
final class DropCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Option(names = "--yes", description = "do not ask for confirmation")
  boolean yes;

  @Override
  void run() {
    if (!yes && !session().confirm("Drop table '" + table + "' and all its data?")) {
      printer().line("not dropped");
      return;
    }
    client().admin().dropTable(table);
    printer().line("dropped table " + table);
  }
}
