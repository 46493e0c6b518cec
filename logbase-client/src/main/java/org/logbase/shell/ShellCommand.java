package org.logbase.shell;

import java.util.concurrent.Callable;
import org.logbase.client.LogBaseClient;
import picocli.CommandLine.ParentCommand;

/** Base of the shell's commands: access to the session; failures are thrown and reported by it. */
abstract class ShellCommand implements Callable<Integer> {
  @ParentCommand
  private Commands root;

  ShellSession session() {
    return root.session();
  }

  LogBaseClient client() {
    return session().client();
  }

  /** A table's rows, through the open transaction if there is one. */
  TableRows rows(String table) {
    return TableRows.of(session(), table);
  }

  /** Fails the command if the user cancelled it; for loops that may not block where an interrupt shows. */
  void checkCancelled() {
    session().cancellation().check();
  }

  Printer printer() {
    return session().printer();
  }

  /** Runs the command; throws to fail it. */
  abstract void run();

  @Override
  public final Integer call() {
    run();
    return 0;
  }
}
