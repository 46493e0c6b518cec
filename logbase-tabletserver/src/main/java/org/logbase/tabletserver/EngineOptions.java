package org.logbase.tabletserver;

import java.net.URI;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.logbase.common.Config;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TimestampSource;

/**
 * What a {@link StorageEngine} opens: where its files live (file:// or hdfs://), its settings, the
 * tablets it serves, and the seams tests use.
 *
 * @param root the server's directory: {@code log/} and {@code checkpoints/} go below it
 * @param hadoop Hadoop client configuration (used for hdfs:// roots)
 * @param clock null for a local {@link org.logbase.tablet.HybridClock}
 * @param fileSystem wraps the file system the engine opens (null: as it is); how tests inject faults
 *     (a flush that fails, a writer stopped at a chosen moment) without hooks in the engine, as
 *     LevelDB's tests do through its Env
 * @param useCheckpoints false makes recovery replay the whole log
 */
public record EngineOptions(
    URI root, Config config, Configuration hadoop, List<TabletDescriptor> tablets, TimestampSource clock,
    UnaryOperator<FileSystem> fileSystem, boolean useCheckpoints) {

  public EngineOptions {
    tablets = List.copyOf(tablets);
    if (fileSystem == null) {
      fileSystem = UnaryOperator.identity();
    }
  }

  public static EngineOptions of(URI root, Config config, List<TabletDescriptor> tablets) {
    return new EngineOptions(root, config, new Configuration(), tablets, null, null, true);
  }

  public EngineOptions withHadoop(Configuration conf) {
    return new EngineOptions(root, config, conf, tablets, clock, fileSystem, useCheckpoints);
  }

  /** These options with the engine's file system wrapped (fault injection in tests). */
  public EngineOptions withFileSystem(UnaryOperator<FileSystem> wrap) {
    return new EngineOptions(root, config, hadoop, tablets, clock, wrap, useCheckpoints);
  }

  public EngineOptions withCheckpoints(boolean use) {
    return new EngineOptions(root, config, hadoop, tablets, clock, fileSystem, use);
  }

  public EngineOptions withConfig(Config c) {
    return new EngineOptions(root, c, hadoop, tablets, clock, fileSystem, useCheckpoints);
  }
}
