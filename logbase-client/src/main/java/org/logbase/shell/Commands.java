package org.logbase.shell;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;

/** The commands one line of shell input may hold. */
@Command(
    name = "logbase",
    synopsisSubcommandLabel = "COMMAND",
    description = "LogBase shell commands. Keys and values are UTF-8 text with \\xNN escapes for any byte;"
        + " quote arguments with spaces. Separate several commands on a line with ';'.",
    subcommands = {
      CreateCommand.class, AlterCommand.class, DescribeCommand.class, ListCommand.class, ExistsCommand.class,
      TruncateCommand.class, DropCommand.class, EnableCommand.class, PutCommand.class, GetCommand.class,
      ScanCommand.class, CountCommand.class, DeleteCommand.class, BeginCommand.class, CommitCommand.class,
      AbortCommand.class, StatusCommand.class, MoveCommand.class, SplitCommand.class, BalancerCommand.class,
      DecommissionCommand.class, CompactCommand.class, VersionCommand.class, HelpCommand.class, ExitCommand.class
    })
final class Commands implements Runnable {
  private final ShellSession session;

  Commands(ShellSession session) {
    this.session = session;
  }

  ShellSession session() {
    return session;
  }

  @Override
  public void run() {
    // No command given: nothing to do (blank lines never get here).
  }
}
