package org.logbase.files;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * How paths are written into manifests: absolute, without scheme and authority, so that they stay
 * valid when the file system's address changes (a NameNode moved, a test cluster restarted); every
 * server resolves them against the one shared file system.
 */
public final class SharedPaths {
  private SharedPaths() {}

  public static String store(FileSystem fs, Path p) {
    return Path.getPathWithoutSchemeAndAuthority(fs.makeQualified(p)).toString();
  }

  public static Path resolve(FileSystem fs, String stored) {
    return fs.makeQualified(new Path(stored));
  }

  /** The entries of a directory; none if it does not exist (yet). */
  public static FileStatus[] list(FileSystem fs, Path dir) throws IOException {
    try {
      return fs.listStatus(dir);
    } catch (FileNotFoundException e) {
      return new FileStatus[0];
    }
  }

  /** Whether two paths name the same place. */
  public static boolean same(FileSystem fs, Path a, String stored) {
    return store(fs, a).equals(stored);
  }
}
