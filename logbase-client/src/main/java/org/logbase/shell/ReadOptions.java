package org.logbase.shell;

import java.util.List;
import org.logbase.common.HybridTimestamp;
import picocli.CommandLine.Option;

/** The options get and scan share (a picocli mixin). */
final class ReadOptions {
  @Option(names = "--columns", split = ",", paramLabel = "COLUMN", description = "columns to read (default: all)")
  List<String> columns = List.of();

  @Option(names = "--as-of", paramLabel = "TS|ISO-INSTANT",
      description = "read as of a timestamp: a number, an instant such as 2024-05-01T10:00:00Z, or instant#n")
  String asOf;

  long asOfTimestamp() {
    return asOf == null ? HybridTimestamp.LATEST : TimestampArgs.parse(asOf);
  }

  /** Inside a transaction reads see its snapshot: another --as-of is a mistake. */
  void checkNoAsOf(long snapshot) {
    if (asOf != null) {
      throw new ShellException("--as-of cannot be used inside a transaction: it reads its snapshot "
          + TimestampArgs.format(snapshot) + " ('commit' or 'abort' it first, or 'begin --as-of')");
    }
  }
}
