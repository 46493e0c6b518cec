package org.logbase.shell;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.logbase.common.Echo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "put", description = {"Writes columns of a row as one atomic version.",
    "Example: put users alice name=Alice email=alice@example.org"})
final class PutCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Parameters(index = "1", paramLabel = "ROW", description = "the row key; \\xNN escapes for any byte")
  String row;

  @Parameters(index = "2..*", arity = "1..*", paramLabel = "COLUMN=VALUE",
      description = "a column and its new value; \\xNN escapes for any byte")
  List<String> assignments;

  @Override
  void run() {
    Map<String, byte[]> columns = new LinkedHashMap<>();
    for (String a : assignments) {
      int eq = a.indexOf('=');
      if (eq <= 0) {
        throw new ShellException("invalid column value '" + a + "': write it as column=value");
      }
      String column = a.substring(0, eq);
      if (columns.put(column, ByteArgs.parse(a.substring(eq + 1))) != null) {
        throw new ShellException("column '" + Echo.of(column) + "' is given twice; a put writes each column once");
      }
    }
    printer().line(rows(table).put(ByteArgs.parse(row), columns));
  }
}
