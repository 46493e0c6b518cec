package org.logbase.shell;

import java.util.ArrayList;
import java.util.List;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletInfo;
import org.logbase.client.TabletSplit;
import org.logbase.common.LogBaseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "split", description = {
    "Splits tablets in two without copying data. With KEY, the tablet holding KEY splits at KEY;",
    "without, every tablet of the table splits at about the middle of its rows (tablets with rows",
    "of one key or none are left as they are). 'describe TABLE' shows the tablets afterwards."})
final class SplitCommand extends TableCommand {
  @Parameters(index = "1", arity = "0..1", paramLabel = "KEY", description = "where the new tablet starts")
  String key;

  @Override
  void run() {
    TableDescription d = client().admin().describeTable(table);
    if (key != null) {
      byte[] at = ByteArgs.parse(key);
      if (at.length == 0) {
        throw new ShellException("an empty KEY splits nothing; leave KEY out to split every tablet at its middle");
      }
      TabletInfo t = d.tablets().stream().filter(x -> x.contains(at)).findFirst()
          .orElseThrow(() -> new ShellException("no tablet of " + table + " holds " + key));
      print(client().admin().splitTablet(table, t.tabletId(), at));
      return;
    }
    List<String> skipped = new ArrayList<>();
    for (TabletInfo t : d.tablets()) {
      try {
        print(client().admin().splitTablet(table, t.tabletId(), null));
      } catch (LogBaseException e) {
        skipped.add(t.tabletId() + " (" + e.getMessage() + ")");
      }
    }
    if (!skipped.isEmpty()) {
      printer().line("not split: " + String.join("; ", skipped));
    }
  }

  private void print(TabletSplit s) {
    printer().line("split tablet " + s.parentId() + " of " + s.table() + " at " + printer().bytes(s.key())
        + " into tablets " + s.leftId() + " and " + s.rightId() + " on " + s.server());
  }
}
