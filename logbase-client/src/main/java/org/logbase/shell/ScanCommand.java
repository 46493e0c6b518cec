package org.logbase.shell;

import org.logbase.client.ScanSpec;
import org.logbase.common.Echo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "scan", description = {"Reads rows in key order: one line per column.",
    "Example: scan users --start a --end m --limit 10",
    "         scan users --prefix user1 --filter city=Paris --columns name,city",
    "         scan users --reverse --limit 10"})
final class ScanCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Option(names = "--start", paramLabel = "KEY", description = "first key (inclusive)")
  String start;

  @Option(names = "--end", paramLabel = "KEY", description = "key to stop before (exclusive)")
  String end;

  @Option(names = "--prefix", paramLabel = "KEY", description = "only the rows whose keys start with this")
  String prefix;

  @Option(names = "--filter", paramLabel = "COLUMN=VALUE|COLUMN^=PREFIX",
      description = "only the rows whose column holds this value (=) or starts with it (^=); evaluated on the"
          + " servers, so other rows are not sent")
  String filter;

  @Option(names = "--reverse", description = "the last N (--limit, 1 to 10,000) rows, last first; each tablet reads"
      + " its part of the range forwards to find them: narrow the range on big tables")
  boolean reverse;

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
    if (reverse && (limit < 1 || limit > ScanSpec.MAX_REVERSE_LIMIT)) {
      throw new ShellException("--reverse needs a --limit of 1 to " + ScanSpec.MAX_REVERSE_LIMIT);
    }
    ScanSpec.Builder spec = ScanSpec.builder().limit(limit).reverse(reverse);
    if (prefix != null) {
      if (start != null || end != null) {
        throw new ShellException("give either --prefix or --start/--end, not both");
      }
      spec.keyPrefix(ByteArgs.parse(prefix));
    }
    if (start != null) {
      spec.start(ByteArgs.parse(start));
    }
    if (end != null) {
      spec.end(ByteArgs.parse(end));
    }
    if (filter != null) {
      int startsWith = filter.indexOf("^=");
      int equals = filter.indexOf('=');
      if (startsWith > 0 && startsWith == equals - 1) {
        spec.valuePrefix(filter.substring(0, startsWith), ByteArgs.parse(filter.substring(startsWith + 2)));
      } else if (equals > 0) {
        spec.valueEquals(filter.substring(0, equals), ByteArgs.parse(filter.substring(equals + 1)));
      } else {
        throw new ShellException("invalid filter '" + Echo.of(filter) + "': write it as column=value or"
            + " column^=prefix");
      }
    }
    int rows = rows(table).scan(spec, read, row -> {
      checkCancelled();
      printer().row(row);
    });
    printer().count(rows, "row", "rows");
    if (limit > 0 && rows == limit) {
      printer().line(reverse && limit == ScanSpec.MAX_REVERSE_LIMIT
          ? "(limit " + limit + " reached, the most a reverse scan reads; for the rows before, scan again with --end"
              + " set to the last row shown)"
          : "(limit " + limit + " reached; use --limit N for more)");
    }
  }
}
