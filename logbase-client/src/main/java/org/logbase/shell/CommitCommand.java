package org.logbase.shell;

import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;
import picocli.CommandLine.Command;

@Command(name = "commit", description = {"Commits the open transaction.",
    "All its writes become visible at one timestamp."})
final class CommitCommand extends ShellCommand {
  @Override
  void run() {
    long ts;
    try {
      // Once begun, a commit runs to its outcome: cutting it short could leave it undecided.
      ts = session().cancellation().uninterruptibly(() -> session().endTransaction().commit());
    } catch (TransactionConflictException | TransactionAbortedException e) {
      throw new ShellException(e.getMessage() + " (nothing was written; begin again)", e);
    }
    printer().line("committed at " + TimestampArgs.format(ts));
  }
}
