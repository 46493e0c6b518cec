package org.logbase.shell;

import java.util.List;
import org.logbase.client.RowVersion;
import org.logbase.common.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "get", description = {"Reads a row, or the history of its versions.",
    "One line per column, with the version's timestamp.",
    "With --versions N, the N newest versions of each column group: one line per column a write set,"
        + " newest first, deletes too.",
    "Example: get users alice --columns name --as-of 2024-05-01T10:00:00Z"})
final class GetCommand extends ShellCommand {
  @Option(names = "--versions", paramLabel = "N", description = "the history: the N newest versions (1 to 1000)")
  Integer versions;

  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Parameters(index = "1", paramLabel = "ROW", description = "the row key; \\xNN escapes for any byte")
  String row;

  @Mixin
  ReadOptions read;

  @Override
  void run() {
    if (versions != null) {
      history();
      return;
    }
    Row r = rows(table).get(ByteArgs.parse(row), read);
    if (r == null) {
      printer().line("(no row)");
    } else {
      printer().row(r);
    }
  }

  private void history() {
    if (session().transaction() != null) {
      throw new ShellException("--versions reads the history, not a transaction's snapshot: 'commit' or 'abort'"
          + " first (or use --as-of outside the transaction)");
    }
    if (versions < 1 || versions > 1000) {
      throw new ShellException("--versions must be 1 to 1000");
    }
    List<RowVersion> history = client().table(table).versions(ByteArgs.parse(row), read.columns,
        read.asOfTimestamp(), versions);
    if (history.isEmpty()) {
      printer().line("(no row)");
    }
    history.forEach(v -> printer().version(ByteArgs.parse(row), v));
  }
}
