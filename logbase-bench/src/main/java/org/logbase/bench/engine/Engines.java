package org.logbase.bench.engine;

import java.io.IOException;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.FileSystem;
import org.logbase.common.Config;
import org.logbase.recovery.Checkpointer;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;

/** Opens storage engines serving the "kv" table on a {@link BenchCluster}. */
public final class Engines {
  private Engines() {}

  /**
   * A configuration whose background checkpointer never fires: a checkpoint in the middle of a
   * timed run would measure the checkpointer, and in the recovery benchmark one taken after a
   * full replay would shorten the next run's log tail.
   */
  public static Config withoutAutomaticCheckpoints(Config c) {
    return c.with(Checkpointer.UPDATES, Long.MAX_VALUE).with(Checkpointer.INTERVAL_MS, 1_000_000_000_000L);
  }

  /** Parses {@code key=value,key=value} (a flag's way of passing engine settings). */
  public static Config parseConfig(String spec) {
    Config c = Config.empty();
    for (String kv : spec.split(",")) {
      if (kv.isBlank()) {
        continue;
      }
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected key=value in engine settings, got '" + kv + "'");
      }
      c = c.with(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    return c;
  }

  static StorageEngine open(BenchCluster cluster, String root, Config config, boolean useCheckpoints)
      throws IOException {
    return open(cluster, root, config, useCheckpoints, List.of(KvRows.TABLET));
  }

  /** An engine serving {@code tablets}. */
  public static StorageEngine open(BenchCluster cluster, String root, Config config, boolean useCheckpoints,
      List<TabletDescriptor> tablets) throws IOException {
    return open(cluster, root, config, useCheckpoints, tablets, UnaryOperator.identity());
  }

  /** The same, on the file system {@code wrap} makes of the cluster's. */
  public static StorageEngine open(BenchCluster cluster, String root, Config config, boolean useCheckpoints,
      List<TabletDescriptor> tablets, UnaryOperator<FileSystem> wrap) throws IOException {
    EngineOptions o = EngineOptions.of(cluster.uri(root), config, tablets)
        .withHadoop(cluster.conf())
        .withCheckpoints(useCheckpoints)
        .withFileSystem(wrap);
    return StorageEngine.open(o);
  }

  static Tablet kv(StorageEngine engine) {
    return engine.tablet(KvRows.TABLET.id());
  }

  /** Where the log of an engine rooted at {@code root} lives. */
  public static String logDir(String root) {
    return root + "/log";
  }
}
