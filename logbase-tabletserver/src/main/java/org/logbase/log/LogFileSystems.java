package org.logbase.log;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;

/** Opens the file system a log lives on ({@link org.logbase.files.Leases} fences a gone writer's files). */
public final class LogFileSystems {

  private LogFileSystems() {}

  /**
   * The file system for {@code root}. file:// gets RawLocalFileSystem because the checksummed
   * LocalFileSystem ignores hflush/hsync, which would make every acknowledgement a lie, and syncs
   * the directories a create, mkdirs or rename changed ({@link DurableLocalFileSystem}). A fresh,
   * uncached instance: closing it must not close someone else's.
   */
  public static FileSystem open(URI root, Configuration conf) throws IOException {
    String scheme = root.getScheme() == null ? "file" : root.getScheme();
    if (scheme.equals("file")) {
      RawLocalFileSystem fs = new DurableLocalFileSystem();
      fs.initialize(URI.create("file:///"), conf);
      return fs;
    }
    return FileSystem.newInstance(root, conf);
  }
}
