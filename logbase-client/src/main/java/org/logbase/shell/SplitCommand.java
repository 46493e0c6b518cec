package org.logbase.shell;

import java.util.ArrayList;
import java.util.List;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletInfo;
import org.logbase.client.TabletSplit;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.LogBaseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "split", description = {
    "Splits tablets in two without copying data.",
    "With KEY, the tablet holding KEY splits at KEY; without, every tablet of the table splits at about the middle"
        + " of its rows (tablets with rows of one key or none are left as they are). 'describe TABLE' shows the"
        + " tablets afterwards."})
final class SplitCommand extends TableCommand {
  /** Failed splits in a row (other than "nothing to split") after which the rest are not tried. */
  private static final int MAX_FAILURES_IN_A_ROW = 3;

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
    int failedInARow = 0;
    int tried = 0;
    int split = 0;
    for (TabletInfo t : d.tablets()) {
      tried++;
      try {
        print(client().admin().splitTablet(table, t.tabletId(), null));
        split++;
        failedInARow = 0;
      } catch (InvalidRequestException e) { // nothing to split there (rows of one key or none)
        skipped.add(t.tabletId() + " (" + e.getMessage() + ")");
        failedInARow = 0;
      } catch (LogBaseException e) {
        skipped.add(t.tabletId() + " (" + e.getMessage() + ")");
        if (++failedInARow == MAX_FAILURES_IN_A_ROW && tried < d.tablets().size()) {
          // The cluster is likely gone: each further split would wait out its deadline, for hours on a big table.
          throw new ShellException("stopped after " + failedInARow + " tablets in a row failed to split (the last,"
              + " tablet " + t.tabletId() + ": " + e.getMessage() + "); split " + split + ", not split "
              + skipped.size() + ", not tried " + (d.tablets().size() - tried) + " of " + d.tablets().size()
              + " tablets. A second 'split " + table + "' would split every tablet again: split the rest by key");
        }
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
