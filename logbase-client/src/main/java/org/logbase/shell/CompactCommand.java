package org.logbase.shell;

import java.util.List;
import org.logbase.client.TabletCompaction;
import picocli.CommandLine.Command;

@Command(name = "compact", description = {
    "Compacts every tablet of a table now.",
    "On the servers that serve them: one line per tablet and a total.",
    "Tablets that were not compacted say why; the command then fails."})
final class CompactCommand extends TableCommand {
  @Override
  void run() {
    List<TabletCompaction> done = client().admin().compact(table);
    for (TabletCompaction c : done) {
      printer().compaction(c);
    }
    printer().compactionTotal(table, done);
    long failed = done.stream().filter(c -> !c.compacted()).count();
    if (failed > 0) {
      throw new ShellException(failed + " of " + done.size() + " tablets of " + table + " were not compacted");
    }
  }
}
