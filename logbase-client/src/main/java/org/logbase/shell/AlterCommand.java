package org.logbase.shell;

import java.util.List;
import org.logbase.client.TableDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "alter", description = {"Adds column groups, or changes a group's storage policy.",
    "Adds column groups to a table, or changes a column group's storage policy.",
    "Settings: " + PolicySettings.USAGE + "; those not given stay as they are.",
    "Example: alter users add stats:visits,score versions=3",
    "Example: alter users stats versions=5 ttl=30d compression=zstd"})
final class AlterCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Parameters(index = "1", paramLabel = "add|GROUP",
      description = "'add' to add column groups, or the column group whose settings change")
  String target;

  @Parameters(index = "2..*", arity = "1..*", paramLabel = "GROUP:COL[,COL...]|SETTING=VALUE",
      description = "after add: new column groups, each with its columns and settings if any;"
          + " after a group: its new settings")
  List<String> args;

  @Override
  void run() {
    if (args.stream().allMatch(PolicySettings::isSetting)) {
      PolicySettings settings = new PolicySettings();
      args.forEach(settings::add);
      TableDescription d = client().admin().alterColumnGroup(table, target, settings.toChange());
      printer().line("column group " + target + " of " + table + ": " + PolicySettings.format(d.policy(target)));
      return;
    }
    if (!target.equalsIgnoreCase("add")) {
      throw new ShellException("alter " + table + " " + target + ": write 'alter TABLE add GROUP:COL[,COL...]' to add"
          + " a column group, or 'alter TABLE GROUP SETTING=VALUE...' to change one (" + PolicySettings.USAGE + ")");
    }
    for (GroupSpec g : GroupSpec.parseAll(args)) {
      client().admin().addColumnGroup(table, g.group(), g.columns(), g.policy());
      printer().line("added column group " + g.group() + " to " + table);
    }
  }
}
