package org.logbase.shell;

import org.logbase.client.Transaction;
import org.logbase.common.HybridTimestamp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "begin", description = {
    "Starts a transaction.",
    "Get, scan, put and delete go through it until commit or abort.",
    "Reads see its snapshot plus its own writes; writes are buffered until commit.",
    "Example: begin --as-of 2024-05-01T10:00:00Z"})
final class BeginCommand extends ShellCommand {
  @Option(names = "--read-only", description = "reads only, at a fresh snapshot; it never conflicts")
  boolean readOnly;

  @Option(names = "--as-of", paramLabel = "TS|ISO-INSTANT",
      description = "reads only, at this snapshot: a number, an instant such as 2024-05-01T10:00:00Z, or instant#n")
  String asOf;

  @Override
  void run() {
    Transaction txn = session().begin(this::start);
    printer().line("transaction " + txn.startTimestamp() + " started (snapshot "
        + HybridTimestamp.toString(txn.startTimestamp()) + (txn.isReadOnly() ? ", read-only)" : ")"));
  }

  private Transaction start() {
    if (asOf == null) {
      return readOnly ? client().beginReadOnly() : client().begin();
    }
    long ts = TimestampArgs.parse(asOf);
    return ts == HybridTimestamp.LATEST ? client().beginReadOnly() : client().snapshotAt(ts);
  }
}
