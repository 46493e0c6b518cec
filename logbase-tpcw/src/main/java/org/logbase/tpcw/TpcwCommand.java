package org.logbase.tpcw;

import java.io.PrintStream;
import java.io.PrintWriter;
import org.logbase.common.Echo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bin/logbase tpcw load|run|audit}: TPC-W against any LogBase cluster, through the client's
 * public API. {@link #execute} runs a command in process and returns its exit code: 0 done, 1
 * failed (interactions with errors, an audit with problems, a cluster error), 2 bad input.
 */
@Command(name = "tpcw", mixinStandardHelpOptions = true,
    description = "TPC-W (version 1.8) on LogBase transactions: load a database, run a mix, audit the result.",
    subcommands = {LoadCommand.class, RunCommand.class, AuditCommand.class})
public final class TpcwCommand implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(TpcwCommand.class);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  PrintStream out = System.out;

  public static void main(String[] args) {
    System.exit(execute(System.out, System.err, args));
  }

  /** Runs a command line; output (status lines, summary, audit) to {@code out}, errors to {@code err}. */
  public static int execute(PrintStream out, PrintStream err, String... args) {
    TpcwCommand top = new TpcwCommand();
    top.out = out;
    CommandLine cl = new CommandLine(top);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    cl.setExecutionExceptionHandler((e, line, parsed) -> {
      boolean input = e instanceof IllegalArgumentException;
      err.println("tpcw " + line.getCommandName() + ": " + Echo.cut(String.valueOf(e.getMessage()), Echo.MAX_MESSAGE));
      if (!input) {
        err.println("  (" + e.getClass().getSimpleName() + "; the tool's log has the stack trace)");
        LOG.error("tpcw {} failed", line.getCommandName(), e);
      }
      return input ? 2 : 1;
    });
    return cl.execute(args);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is needed: load, run or audit");
  }
}
