package org.logbase.tpcw;

import java.util.concurrent.Callable;
import org.logbase.client.LogBaseClient;
import org.logbase.tpcw.data.Loader;
import org.logbase.tpcw.data.Population;
import org.logbase.tpcw.data.Scale;
import org.logbase.tpcw.data.TableSetup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code tpcw load}: creates the tables, pre-split, and loads the population in parallel. */
@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Create the TPC-W tables (pre-split) and load the initial database with batch puts.")
final class LoadCommand implements Callable<Integer> {
  @ParentCommand TpcwCommand top;
  @Mixin ClusterOptions cluster;

  @Option(names = "--items", defaultValue = "1000", description = "Items: 1000, 10000 or 100000 (default: ${DEFAULT-VALUE}).")
  int items;

  @Option(names = "--browsers", defaultValue = "1",
      description = "Emulated browsers the database is sized for: 2,880 customers each (default: ${DEFAULT-VALUE}).")
  int browsers;

  @Option(names = "--tablets", defaultValue = "6",
      description = "Tablets per large table, split by key so that they spread over the servers (default: ${DEFAULT-VALUE}).")
  int tablets;

  @Option(names = "--threads", defaultValue = "4", description = "Loading threads (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the population (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--replace", description = "Drop existing TPC-W tables first.")
  boolean replace;

  @Override
  public Integer call() throws Exception {
    Scale scale = new Scale(items, browsers);
    long now = System.currentTimeMillis();
    try (LogBaseClient client = cluster.connect()) {
      Loader loader = new Loader(client, new Population(scale, seed, now), threads, top.out);
      TableSetup.create(client.admin(), tablets, replace);
      top.out.printf("load: %,d items, %,d customers, %,d orders (%d browsers), %d tablets per table%n",
          scale.items(), scale.customers(), scale.orders(), scale.browsers(), tablets);
      long rows = loader.load(seed, now);
      top.out.printf("load: done, %,d rows in %.1f s%n", rows, (System.currentTimeMillis() - now) / 1000.0);
    }
    return 0;
  }
}
