package org.logbase.tabletserver;

import java.net.URI;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.logbase.common.Config;
import org.logbase.common.FaultInjector;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TimestampSource;

/**
 * What a {@link StorageEngine} opens: where its files live (file:// or hdfs://), its settings, the
 * tablets it serves, and the seams tests use.
 *
 * @param root the server's directory: {@code log/} and {@code checkpoints/} go below it
 * @param hadoop Hadoop client configuration (used for hdfs:// roots)
 * @param clock null for a local {@link org.logbase.tablet.HybridClock}
 * @param useCheckpoints false makes recovery replay the whole log
 */
public record EngineOptions(
    URI root, Config config, Configuration hadoop, List<TabletDescriptor> tablets, TimestampSource clock,
    FaultInjector faults, boolean useCheckpoints) {

  public EngineOptions {
    tablets = List.copyOf(tablets);
    if (faults == null) {
      faults = FaultInjector.NONE;
    }
  }

  public static EngineOptions of(URI root, Config config, List<TabletDescriptor> tablets) {
    return new EngineOptions(root, config, new Configuration(), tablets, null, FaultInjector.NONE, true);
  }

  public EngineOptions withHadoop(Configuration conf) {
    return new EngineOptions(root, config, conf, tablets, clock, faults, useCheckpoints);
  }

  public EngineOptions withFaults(FaultInjector f) {
    return new EngineOptions(root, config, hadoop, tablets, clock, f, useCheckpoints);
  }

  public EngineOptions withCheckpoints(boolean use) {
    return new EngineOptions(root, config, hadoop, tablets, clock, faults, use);
  }

  public EngineOptions withConfig(Config c) {
    return new EngineOptions(root, c, hadoop, tablets, clock, faults, useCheckpoints);
  }
}
