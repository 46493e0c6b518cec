package org.logbase.shell;

import java.util.List;
import org.logbase.client.TableDefinition;
import org.logbase.client.TableDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "create", description = {"Creates a table with its column groups.",
    "Settings after a group set its storage policy: " + PolicySettings.USAGE + ".",
    "Example: create users profile:name,email stats:visits versions=3 ttl=7d --splits g,p"})
final class CreateCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "GROUP:COL[,COL...] [SETTING=VALUE...]",
      description = "a column group and its columns, then its settings if any")
  List<String> groups;

  @Option(names = "--splits", split = ",", paramLabel = "KEY",
      description = "keys at which to split the table into tablets (n keys: n + 1 tablets)")
  List<String> splits = List.of();

  @Override
  void run() {
    TableDefinition.Builder def = TableDefinition.builder(table);
    GroupSpec.parseAll(groups).forEach(g -> def.columnGroup(g.group(), g.columns(), g.policy()));
    byte[][] splitKeys = splits.stream().map(ByteArgs::parse).toArray(byte[][]::new);
    TableDescription d = client().admin().createTable(def.build(), splitKeys);
    printer().line("created table " + d.name() + " with " + d.tablets().size() + " tablet"
        + (d.tablets().size() == 1 ? "" : "s"));
  }
}
