package org.logbase.shell;

import picocli.CommandLine.Command;

/**
 * HBase's {@code disable} and {@code enable}: LogBase has no disabled state, so these only say so,
 * which lets an HBase habit ({@code disable t; drop t}) work unchanged.
 */
@Command(name = "disable", aliases = "enable", description = {
    "Does nothing: LogBase tables are never disabled. alter, truncate and drop work on a live table.",
    "(Accepted for HBase habits such as 'disable t; drop t'.)"})
final class EnableCommand extends TableCommand {
  @Override
  void run() {
    client().admin().describeTable(table); // a table that does not exist is still an error
    printer().line("nothing to do: LogBase tables are never disabled (alter, truncate and drop work on a live"
        + " table)");
  }
}
