package org.logbase.shell;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "alter", description = {"Adds column groups to a table.",
    "Example: alter users add stats:visits,score"})
final class AlterCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Parameters(index = "1", paramLabel = "add", description = "the change; only 'add' is supported")
  String action;

  @Parameters(index = "2..*", arity = "1..*", paramLabel = "GROUP:COL[,COL...]",
      description = "a new column group and its columns (new to the table)")
  List<String> groups;

  @Override
  void run() {
    if (!action.equalsIgnoreCase("add")) {
      throw new ShellException("alter supports only 'add': alter " + table + " add group:column[,column...]");
    }
    for (GroupSpec g : groups.stream().map(GroupSpec::parse).toList()) {
      client().admin().addColumnGroup(table, g.group(), g.columns().toArray(String[]::new));
      printer().line("added column group " + g.group() + " to " + table);
    }
  }
}
