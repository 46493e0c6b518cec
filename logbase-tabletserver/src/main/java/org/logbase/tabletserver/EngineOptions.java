package org.logbase.tabletserver;

import java.net.URI;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.logbase.common.Config;
import org.logbase.files.FileIds;
import org.logbase.log.LogSeals;
import org.logbase.recovery.LogCollector;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TimestampSource;

/**
 * What a {@link StorageEngine} opens: where its files live (file:// or hdfs://), its settings, the
 * tablets it serves, and the seams tests use.
 *
 * @param root the server's directory: its log ({@code log/}) goes below it
 * @param shared the cluster's shared directory on the same file system: tablet manifests and
 *     checkpoints ({@code tablets/}) go below it, where any server can load them; null: {@code root}
 * @param hadoop Hadoop client configuration (used for hdfs:// roots)
 * @param clock null for a local {@link org.logbase.tablet.HybridClock}
 * @param fileIds where data-file ids come from (a cluster's servers share one source, in ZooKeeper);
 *     null: a file under {@code shared}, for an engine that is alone there
 * @param fileSystem wraps the file system the engine opens (null: as it is); how tests inject faults
 *     (a flush that fails, a writer stopped at a chosen moment) without hooks in the engine, as
 *     LevelDB's tests do through its Env
 * @param useCheckpoints false makes recovery replay the whole log
 * @param otherLogs tells whether another server's log is still written by a live server, before this
 *     engine reads a tablet's tail from it (null: {@link OtherLogs#WRITERS_GONE}, for an engine that
 *     is alone)
 * @param seals where logs whose writers are gone are sealed (a cluster's servers share them, in
 *     ZooKeeper); null: files under {@code shared}, for an engine that is alone there
 * @param droppedTables which tables were dropped, for the log's garbage collection (a cluster's
 *     master records them in ZooKeeper); null: none
 */
public record EngineOptions(
    URI root, URI shared, Config config, Configuration hadoop, List<TabletDescriptor> tablets, TimestampSource clock,
    FileIds fileIds, UnaryOperator<FileSystem> fileSystem, boolean useCheckpoints, OtherLogs otherLogs, LogSeals seals,
    LogCollector.DroppedTables droppedTables) {

  public EngineOptions {
    tablets = List.copyOf(tablets);
    if (shared == null) {
      shared = root;
    }
    if (fileSystem == null) {
      fileSystem = UnaryOperator.identity();
    }
    if (otherLogs == null) {
      otherLogs = OtherLogs.WRITERS_GONE;
    }
    if (droppedTables == null) {
      droppedTables = LogCollector.DroppedTables.NONE;
    }
  }

  public static EngineOptions of(URI root, Config config, List<TabletDescriptor> tablets) {
    return new EngineOptions(root, null, config, new Configuration(), tablets, null, null, null, true, null, null, null);
  }

  public EngineOptions withHadoop(Configuration conf) {
    return new EngineOptions(root, shared, config, conf, tablets, clock, fileIds, fileSystem, useCheckpoints, otherLogs, seals, droppedTables);
  }

  /** These options with the engine's file system wrapped (fault injection in tests). */
  public EngineOptions withFileSystem(UnaryOperator<FileSystem> wrap) {
    return new EngineOptions(root, shared, config, hadoop, tablets, clock, fileIds, wrap, useCheckpoints, otherLogs, seals, droppedTables);
  }

  public EngineOptions withCheckpoints(boolean use) {
    return new EngineOptions(root, shared, config, hadoop, tablets, clock, fileIds, fileSystem, use, otherLogs, seals, droppedTables);
  }

  public EngineOptions withConfig(Config c) {
    return new EngineOptions(root, shared, c, hadoop, tablets, clock, fileIds, fileSystem, useCheckpoints, otherLogs, seals, droppedTables);
  }

  /** These options with manifests and checkpoints under {@code dir} (shared with other engines). */
  public EngineOptions withShared(URI dir) {
    return new EngineOptions(root, dir, config, hadoop, tablets, clock, fileIds, fileSystem, useCheckpoints, otherLogs, seals, droppedTables);
  }

  public EngineOptions withFileIds(FileIds ids) {
    return new EngineOptions(root, shared, config, hadoop, tablets, clock, ids, fileSystem, useCheckpoints, otherLogs, seals, droppedTables);
  }

  public EngineOptions withClock(TimestampSource c) {
    return new EngineOptions(root, shared, config, hadoop, tablets, c, fileIds, fileSystem, useCheckpoints, otherLogs, seals, droppedTables);
  }

  public EngineOptions withTablets(List<TabletDescriptor> ts) {
    return new EngineOptions(root, shared, config, hadoop, ts, clock, fileIds, fileSystem, useCheckpoints, otherLogs, seals, droppedTables);
  }

  /** These options with another way to tell whether other servers' logs are written still (a cluster asks ZooKeeper). */
  public EngineOptions withOtherLogs(OtherLogs others) {
    return new EngineOptions(root, shared, config, hadoop, tablets, clock, fileIds, fileSystem, useCheckpoints, others, seals, droppedTables);
  }

  /** These options with another place for log seals (a cluster's servers share ZooKeeper's). */
  public EngineOptions withLogSeals(LogSeals s) {
    return new EngineOptions(root, shared, config, hadoop, tablets, clock, fileIds, fileSystem, useCheckpoints, otherLogs, s, droppedTables);
  }

  /** These options with a view of the dropped tables (a cluster's, in ZooKeeper). */
  public EngineOptions withDroppedTables(LogCollector.DroppedTables d) {
    return new EngineOptions(root, shared, config, hadoop, tablets, clock, fileIds, fileSystem, useCheckpoints, otherLogs, seals,
        d);
  }
}
