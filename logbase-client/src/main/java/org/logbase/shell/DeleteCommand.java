package org.logbase.shell;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "delete", description = "Deletes a row (reads as of earlier timestamps still see it).")
final class DeleteCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Parameters(index = "1", paramLabel = "ROW", description = "the row key; \\xNN escapes for any byte")
  String row;

  @Override
  void run() {
    printer().line(rows(table).delete(ByteArgs.parse(row)));
  }
}
