package org.logbase.tpcw;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.logbase.client.LogBaseClient;
import org.logbase.tpcw.driver.Driver;
import org.logbase.tpcw.driver.Mix;
import org.logbase.tpcw.driver.RunSettings;
import org.logbase.tpcw.driver.Summary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code tpcw run}: emulated browsers run a mix; status lines, then the summary (and CSV rows). */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Run a mix with emulated browsers against a loaded database; exit code 1 if interactions failed.")
final class RunCommand implements Callable<Integer> {
  @ParentCommand TpcwCommand top;
  @Mixin ClusterOptions cluster;

  @Option(names = "--mix", defaultValue = "shopping", description = "browsing, shopping, ordering, paper-browsing, "
      + "paper-shopping or paper-ordering (default: ${DEFAULT-VALUE}).")
  String mix;

  @Option(names = "--browsers", defaultValue = "10", description = "Emulated browsers (threads) (default: ${DEFAULT-VALUE}).")
  int browsers;

  @Option(names = "--duration", defaultValue = "60", description = "Seconds measured (default: ${DEFAULT-VALUE}).")
  int seconds;

  @Option(names = "--warmup", defaultValue = "0", description = "Seconds run before measuring (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--think-time", defaultValue = "0", description = "Mean think time in ms, exponential "
      + "(TPC-W: 7000); 0 for a stress run (default: ${DEFAULT-VALUE}).")
  long thinkMs;

  @Option(names = "--id-block", defaultValue = "100", description = "Ids a browser takes from a sequence at a time, "
      + "as a sequence's cache (default: ${DEFAULT-VALUE}; 1 makes every new id a transaction on the one sequence row).")
  int idBlock;

  @Option(names = "--attempts", defaultValue = "10",
      description = "Attempts of an interaction whose transaction conflicts (default: ${DEFAULT-VALUE}).")
  int attempts;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the browsers (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--status-interval", defaultValue = "10", description = "Seconds between status lines (default: ${DEFAULT-VALUE}).")
  int statusSeconds;

  @Option(names = "--csv", description = "Append the summary to this CSV file (a header first if it is new).")
  Path csv;

  @Option(names = "--label", defaultValue = "", description = "First column of the CSV rows (e.g. the cluster size).")
  String label;

  @Override
  public Integer call() throws Exception {
    RunSettings settings = new RunSettings(Mix.parse(mix), browsers, seconds, warmup, thinkMs, idBlock, attempts, seed,
        statusSeconds);
    try (LogBaseClient client = cluster.connect()) {
      Summary summary = new Driver(client, settings, top.out).run();
      summary.print(top.out);
      if (csv != null) {
        summary.appendCsv(csv, label);
      }
      return summary.total().errors() > 0 ? 1 : 0;
    }
  }
}
