package org.logbase.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local file system a log lives on syncs the directories whose entries a mkdirs or a rename
 * changed, and a new file's directory at the file's first hsync (a file only hflushed needs none).
 */
class DurableLocalFileSystemTest {
  @TempDir Path dir;

  @Test
  void namespaceChangesSyncTheirDirectories() throws Exception {
    try (FileSystem opened = LogFileSystems.open(dir.toUri(), new Configuration())) {
      DurableLocalFileSystem fs = assertInstanceOf(DurableLocalFileSystem.class, opened);
      org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(dir.toUri());
      org.apache.hadoop.fs.Path sub = new org.apache.hadoop.fs.Path(root, "a/b");
      assertTrue(fs.mkdirs(sub));
      assertEquals(2, fs.directorySyncs(), "a and b made, each recorded in its parent");

      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(sub, "seg-1.log");
      try (FSDataOutputStream out = fs.create(file, false)) {
        out.write(1);
        out.hflush();
        assertEquals(2, fs.directorySyncs(), "a file only hflushed: its name need survive only a crash of the process");
        out.hsync();
        assertEquals(3, fs.directorySyncs(), "the new file's name synced at its first hsync");
        out.write(2);
        out.hsync();
      }
      assertEquals(3, fs.directorySyncs(), "and only at its first");

      fs.rename(file, new org.apache.hadoop.fs.Path(sub, "seg-2.log"));
      assertEquals(4, fs.directorySyncs(), "a rename within one directory syncs it once");
      fs.rename(new org.apache.hadoop.fs.Path(sub, "seg-2.log"), new org.apache.hadoop.fs.Path(root, "seg-2.log"));
      assertEquals(6, fs.directorySyncs(), "a rename across directories syncs both");
      assertTrue(fs.exists(new org.apache.hadoop.fs.Path(root, "seg-2.log")));
    }
  }
}
