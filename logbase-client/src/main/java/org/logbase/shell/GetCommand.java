package org.logbase.shell;

import org.logbase.common.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "get", description = {"Reads a row: one line per column, with the version's timestamp.",
    "Example: get users alice --columns name --as-of 2024-05-01T10:00:00Z"})
final class GetCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Parameters(index = "1", paramLabel = "ROW", description = "the row key; \\xNN escapes for any byte")
  String row;

  @Mixin
  ReadOptions read;

  @Override
  void run() {
    Row r = rows(table).get(ByteArgs.parse(row), read);
    if (r == null) {
      printer().line("(no row)");
    } else {
      printer().row(r);
    }
  }
}
