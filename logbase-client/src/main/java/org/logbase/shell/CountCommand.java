package org.logbase.shell;

import org.logbase.client.ScanSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "count", description = {"Counts a table's rows.",
    "A scan of the whole table, on its servers in turn.",
    "On a big table a progress line goes to stderr every --interval rows. Example: count users"})
final class CountCommand extends TableCommand {
  @Option(names = "--interval", paramLabel = "N", defaultValue = "100000",
      description = "rows between progress lines (default: ${DEFAULT-VALUE})")
  int interval;

  @Override
  void run() {
    if (interval <= 0) {
      throw new ShellException("--interval must be 1 or more");
    }
    long[] counted = {0};
    rows(table).scan(ScanSpec.builder(), new ReadOptions(), row -> {
      checkCancelled();
      if (++counted[0] % interval == 0) {
        session().progress("counted " + counted[0] + " rows so far, now at " + printer().key(row.key()));
      }
    });
    printer().count(counted[0], "row", "rows");
  }
}
