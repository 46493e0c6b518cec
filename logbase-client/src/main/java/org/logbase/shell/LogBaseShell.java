package org.logbase.shell;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.logbase.client.Transaction;
import org.logbase.common.Config;
import org.logbase.common.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;

/**
 * The LogBase admin shell. Interactive by default; {@code -e "cmd; cmd"} runs commands and exits,
 * {@code -f FILE} runs a script. Exit code 0 when every command succeeded, 1 when one failed, 2
 * for invalid shell options.
 */
@Command(name = "logbase shell", mixinStandardHelpOptions = true, versionProvider = LogBaseShell.VersionText.class,
    description = "LogBase admin shell: manage tables and read or write rows. Type 'help' inside for commands.")
public final class LogBaseShell implements Callable<Integer> {
  /** Where the shell's logging configuration lives when the caller gives none. */
  static final String LOG_CONFIG = "org/logbase/shell/shell-log4j.properties";
  /** Held here: java.util.logging keeps its loggers weakly, and would forget the level set on one. */
  private static final Logger GRPC_LOG = Logger.getLogger("io.grpc");

  @Option(names = "-e", paramLabel = "COMMANDS", description = "run commands separated by ';', then exit")
  private String commands;

  @Option(names = "-f", paramLabel = "FILE", description = "run a script: one command per line, '#' comments")
  private Path script;

  @Option(names = "--continue-on-error", description = "with -f: run the rest of the script after a failure")
  private boolean continueOnError;

  @Option(names = "--zookeeper", paramLabel = "HOST:PORT", description = "ZooKeeper of the cluster"
      + " (default: zookeeper.connect from the configuration, else " + ShellConfig.DEFAULT_ZOOKEEPER + ")")
  private String zookeeper;

  @Option(names = "--config", paramLabel = "FILE",
      description = "settings file (default: $LOGBASE_HOME/conf/logbase.properties if present)")
  private Path configFile;

  @Option(names = "--debug", description = "print stack traces with errors")
  private boolean debug;

  private final PrintWriter out;
  private final PrintWriter err;

  /** What --version prints. */
  static final class VersionText implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"LogBase shell " + Version.get()};
    }
  }

  private LogBaseShell(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    // Before anything logs: keep stdout for command output (ZooKeeper and gRPC log otherwise).
    if (System.getProperty("log4j.configuration") == null) {
      System.setProperty("log4j.configuration", LOG_CONFIG);
    }
    // gRPC logs through java.util.logging, to stderr: a failed call's "Received data on closed
    // stream" at INFO, a dozen lines after the one ERROR line the shell prints.
    GRPC_LOG.setLevel(Level.WARNING);
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the shell with these arguments and streams; returns the exit code. */
  public static int run(String[] args, PrintStream stdout, PrintStream stderr) {
    PrintWriter out = new PrintWriter(stdout, true, StandardCharsets.UTF_8);
    PrintWriter err = new PrintWriter(stderr, true, StandardCharsets.UTF_8);
    LogBaseShell shell = new LogBaseShell(out, err);
    CommandLine cl = new CommandLine(shell).setOut(out).setErr(err);
    cl.setParameterExceptionHandler((e, a) -> {
      err.println("ERROR: " + ParseErrors.message(e) + " (see --help)");
      return 2;
    });
    cl.setExecutionExceptionHandler((e, command, parsed) -> {
      err.println("ERROR: " + ErrorLines.message(e));
      if (shell.debug) {
        e.printStackTrace(err);
      }
      return 1;
    });
    int code = cl.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  @Override
  public Integer call() throws Exception {
    if (commands != null && script != null) {
      throw new ShellException("give either -e or -f, not both");
    }
    Config config = ShellConfig.load(configFile, zookeeper);
    if (commands == null && script == null) {
      return new InteractiveShell(config, debug).run();
    }
    try (ShellSession session = new ShellSession(config, out, err, debug)) {
      ScriptRunner runner = new ScriptRunner(session);
      int code = commands != null ? runner.runCommands(commands) : runner.runFile(script, continueOnError);
      Transaction open = session.transaction();
      if (open == null || open.isReadOnly() || code != 0) {
        return code; // closing the session aborts an open one, with a note
      }
      // Writes begun and never committed: most likely a forgotten 'commit', which must not pass for success.
      session.endTransaction().abort();
      err.println("ERROR: transaction " + open.startTimestamp() + " was still open at the end of the "
          + (commands != null ? "commands" : "script") + ": aborted, nothing of it was written (end it with 'commit')");
      return 1;
    }
  }
}
