package org.logbase.dist.storagedemo;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The storage demo's data directory. The demo deletes an earlier run's data, and only that: it
 * marks a directory it creates with {@link #MARKER} and never empties one without the mark (a
 * running cluster's directory, say, or anything else the user pointed it at by mistake).
 */
final class DemoRoot {
  /** The file that says "the storage demo created this directory". */
  static final String MARKER = ".logbase-storage-demo";

  private DemoRoot() {}

  /**
   * Makes {@code root} an empty directory marked as the demo's: creates it if missing, uses it if
   * empty, empties it if an earlier demo run marked it.
   *
   * @throws IllegalStateException naming the directory and what is in it, if it holds anything
   *     else; nothing is deleted then
   */
  static void prepareEmpty(FileSystem fs, URI root) throws IOException {
    Path dir = new Path(root);
    if (isOurs(fs, dir)) {
      for (FileStatus f : fs.listStatus(dir)) {
        fs.delete(f.getPath(), true);
      }
    } else {
      refuseIfUsed(fs, dir);
    }
    mark(fs, dir);
  }

  /**
   * For {@code --keep}: {@code root} must be an earlier demo run's directory, or missing or empty.
   *
   * @throws IllegalStateException if it holds anything else
   */
  static void prepareKept(FileSystem fs, URI root) throws IOException {
    Path dir = new Path(root);
    if (!isOurs(fs, dir)) {
      refuseIfUsed(fs, dir);
      mark(fs, dir);
    }
  }

  private static boolean isOurs(FileSystem fs, Path dir) throws IOException {
    return fs.exists(new Path(dir, MARKER));
  }

  private static void refuseIfUsed(FileSystem fs, Path dir) throws IOException {
    if (!fs.exists(dir)) {
      return;
    }
    if (!fs.getFileStatus(dir).isDirectory()) {
      throw new IllegalStateException(dir + " is a file, not a directory: give the storage demo another ROOT");
    }
    FileStatus[] inside = fs.listStatus(dir);
    if (inside.length == 0) {
      return;
    }
    StringBuilder names = new StringBuilder();
    for (int i = 0; i < Math.min(5, inside.length); i++) {
      names.append(i == 0 ? "" : ", ").append(inside[i].getPath().getName());
    }
    boolean cluster = fs.exists(new Path(dir, "pids")) || fs.exists(new Path(dir, "conf/zoo.cfg"));
    throw new IllegalStateException(dir + (cluster ? " holds a cluster's files" : " is not empty") + " ("
        + names + (inside.length > 5 ? ", ..." : "") + ") and was not created by the storage demo: nothing was"
        + " deleted. Give the storage demo an empty or new directory as ROOT.");
  }

  private static void mark(FileSystem fs, Path dir) throws IOException {
    fs.mkdirs(dir);
    fs.create(new Path(dir, MARKER), true).close();
  }
}
