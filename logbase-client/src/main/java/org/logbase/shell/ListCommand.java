package org.logbase.shell;

import java.util.List;
import picocli.CommandLine.Command;

@Command(name = "list", description = "Lists the tables.")
final class ListCommand extends ShellCommand {
  @Override
  void run() {
    List<String> tables = client().admin().listTables();
    tables.forEach(printer()::line);
    printer().count(tables.size(), "table", "tables");
  }
}
