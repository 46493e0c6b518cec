package org.logbase.tabletserver.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.ZkPaths;
import org.logbase.testing.MiniZooKeeper;

/**
 * Which other servers' logs a server collects: those under {@code servers/} whose server is not
 * registered in ZooKeeper, never its own or a registered one's, and none once that server
 * registers again.
 */
class DeadServerLogsTest {
  @TempDir File dir;
  private MiniZooKeeper zk;
  private final ZkPaths paths = ZkPaths.from(Config.empty());
  private FileSystem fs;
  private DeadServerLogs logs;

  @BeforeEach
  void setUp() throws Exception {
    zk = new MiniZooKeeper();
    fs = FileSystem.getLocal(new Configuration()).getRawFileSystem();
    logs = new DeadServerLogs(zk.client(), paths);
  }

  @AfterEach
  void tearDown() throws Exception {
    zk.close();
  }

  private Path log(String server) throws Exception {
    Path log = path("servers/" + server + "/log");
    fs.mkdirs(log);
    return log;
  }

  private Path path(String under) {
    return fs.makeQualified(new Path(new File(dir, under).getAbsolutePath()));
  }

  private void register(String server) throws Exception {
    zk.client().create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(paths.server(server));
  }

  @Test
  void theLogsOfServersNotRegisteredAreGoneTheOwnAndLiveOnesNot() throws Exception {
    Path own = log("ts1");
    log("ts2");
    Path ts3 = log("ts3");
    fs.mkdirs(path("servers/ts4")); // a server directory without a log
    register("ts2"); // not ts1: its own log is left out for being its own
    assertEquals(List.of(ts3), logs.goneLogs(fs, own));
    assertFalse(logs.writerLive(ts3));
    assertTrue(logs.writerLive(log("ts2")));

    register("ts3"); // back: it collects its own log again
    assertEquals(List.of(), logs.goneLogs(fs, own));
  }

  @Test
  void aLogNotLaidOutAsAServersHasNoOtherServersToTell() throws Exception {
    Path alone = path("engine/log");
    fs.mkdirs(alone);
    log("ts3");
    assertEquals(List.of(), logs.goneLogs(fs, alone));
  }
}
