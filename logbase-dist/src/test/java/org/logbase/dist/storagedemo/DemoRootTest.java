package org.logbase.dist.storagedemo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.log.LogFileSystems;
import picocli.CommandLine;

/** The storage demo deletes only what an earlier storage demo wrote. */
class DemoRootTest {
  @TempDir Path dir;

  /** What bin/start-cluster.sh leaves in its run directory. */
  private Path clusterRunDir() throws IOException {
    Path run = dir.resolve("demo");
    Files.createDirectories(run.resolve("pids"));
    Files.createDirectories(run.resolve("conf"));
    Files.createDirectories(run.resolve("data/fs"));
    Files.writeString(run.resolve("pids/zookeeper.pid"), "12345\n");
    Files.writeString(run.resolve("conf/zoo.cfg"), "clientPort=2181\n");
    return run;
  }

  @Test
  void theStorageDemoRefusesAClustersRunDirectoryAndDeletesNothing() throws Exception {
    Path run = clusterRunDir();
    int code = new CommandLine(new StorageDemo()).execute(run.toString(), "--config", dir.resolve("none").toString());
    assertEquals(2, code);
    assertTrue(Files.exists(run.resolve("pids/zookeeper.pid")));
    assertTrue(Files.exists(run.resolve("conf/zoo.cfg")));
    assertTrue(Files.isDirectory(run.resolve("data/fs")));
  }

  @Test
  void anyOtherNonEmptyDirectoryIsRefusedWithWhatIsInIt() throws Exception {
    Files.writeString(dir.resolve("notes.txt"), "mine");
    try (FileSystem fs = fs()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> DemoRoot.prepareEmpty(fs, dir.toUri()));
      assertTrue(e.getMessage().contains("is not empty (notes.txt)"), e.getMessage());
      assertThrows(IllegalStateException.class, () -> DemoRoot.prepareKept(fs, dir.toUri()));
    }
    assertTrue(Files.exists(dir.resolve("notes.txt")));
    assertFalse(Files.exists(dir.resolve(DemoRoot.MARKER)));
  }

  @Test
  void aNewDirectoryIsMarkedAndAnEarlierRunsIsEmptiedOrKept() throws Exception {
    Path root = dir.resolve("storage-demo");
    try (FileSystem fs = fs()) {
      DemoRoot.prepareEmpty(fs, root.toUri());
      assertTrue(Files.exists(root.resolve(DemoRoot.MARKER)));
      Files.createDirectories(root.resolve("log"));
      Files.writeString(root.resolve("log/seg-1.log"), "data");

      DemoRoot.prepareKept(fs, root.toUri());
      assertTrue(Files.exists(root.resolve("log/seg-1.log")));

      DemoRoot.prepareEmpty(fs, root.toUri());
      assertFalse(Files.exists(root.resolve("log")));
      assertTrue(Files.exists(root.resolve(DemoRoot.MARKER)));
    }
  }

  @Test
  void anEmptyDirectoryIsUsed() throws Exception {
    try (FileSystem fs = fs()) {
      DemoRoot.prepareEmpty(fs, dir.toUri());
    }
    assertTrue(Files.exists(dir.resolve(DemoRoot.MARKER)));
  }

  private FileSystem fs() throws IOException {
    return LogFileSystems.open(dir.toUri(), new Configuration());
  }
}
