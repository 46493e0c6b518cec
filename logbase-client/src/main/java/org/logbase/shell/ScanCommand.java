package org.logbase.shell;

import org.logbase.client.ScanSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "scan", description = {"Reads rows in key order: one line per column.",
    "Example: scan users --start a --end m --limit 10"})
final class ScanCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Option(names = "--start", paramLabel = "KEY", description = "first key (inclusive)")
  String start;

  @Option(names = "--end", paramLabel = "KEY", description = "key to stop before (exclusive)")
  String end;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
      description = "at most N rows (default: ${DEFAULT-VALUE}; 0 for all)")
  int limit;

  @Mixin
  ReadOptions read;

  @Override
  void run() {
    if (limit < 0) {
      throw new ShellException("--limit must be 0 (all) or more");
    }
    ScanSpec.Builder spec = ScanSpec.builder().limit(limit);
    if (start != null) {
      spec.start(ByteArgs.parse(start));
    }
    if (end != null) {
      spec.end(ByteArgs.parse(end));
    }
    int rows = rows(table).scan(spec, read, row -> {
      checkCancelled();
      printer().row(row);
    });
    printer().count(rows, "row", "rows");
    if (limit > 0 && rows == limit) {
      printer().line("(limit " + limit + " reached; use --limit N for more)");
    }
  }
}
