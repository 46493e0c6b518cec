package org.logbase.shell;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.logbase.common.Echo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "list", description = {"Lists the tables (those matching a regular expression).",
    "Lists the tables, or those whose whole name matches a regular expression.",
    "Example: list 'user.*'"})
final class ListCommand extends ShellCommand {
  @Parameters(index = "0", arity = "0..1", paramLabel = "REGEX", description = "a Java regular expression")
  String regex;

  @Override
  void run() {
    Pattern pattern;
    try {
      pattern = Pattern.compile(regex == null ? ".*" : regex);
    } catch (PatternSyntaxException e) {
      throw new ShellException("invalid regular expression '" + Echo.of(regex) + "': " + e.getDescription());
    }
    List<String> tables = client().admin().listTables().stream().filter(t -> pattern.matcher(t).matches()).toList();
    tables.forEach(printer()::line);
    printer().count(tables.size(), "table", "tables");
  }
}
