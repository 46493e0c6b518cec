package org.logbase.files;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * File ids for a storage engine that runs alone (the storage demo, benchmarks, tests): reserved in
 * blocks, each recorded before any id of it is handed out as an empty file {@code upto-<end>} in a
 * directory (creating an empty file is a name-space operation only: on HDFS it costs no block and no
 * wait for one to close), the older record deleted after. A restart continues above the largest
 * record, so it never hands out an id again. Not safe for two processes at once; a cluster
 * allocates from ZooKeeper instead.
 */
public final class LocalFileIds implements FileIds {
  static final long BLOCK = 64;
  private static final Pattern NAME = Pattern.compile("upto-(\\d{20})");

  private final FileSystem fs;
  private final Path dir;
  private long next;
  private long reservedEnd;

  /**
   * @param dir where the reservations are recorded
   * @param atLeast the first id handed out is at least this (above the ids of files already present)
   */
  public LocalFileIds(FileSystem fs, Path dir, long atLeast) throws IOException {
    this.fs = fs;
    this.dir = dir;
    long stored = 1;
    for (Path p : records()) {
      stored = Math.max(stored, end(p));
    }
    this.next = Math.max(stored, Math.max(atLeast, 1));
    this.reservedEnd = next;
  }

  @Override
  public synchronized long next() throws IOException {
    if (next >= reservedEnd) {
      long end = next + BLOCK;
      List<Path> older = records();
      fs.create(new Path(dir, String.format("upto-%020d", end)), false).close();
      for (Path p : older) {
        fs.delete(p, false);
      }
      reservedEnd = end;
    }
    return FileIds.check(next++);
  }

  @Override
  public synchronized void reserveAbove(long id) {
    if (next <= id) {
      next = id + 1;
      reservedEnd = next; // the next id reserves a block from here, recorded first
    }
  }

  private List<Path> records() throws IOException {
    List<Path> out = new ArrayList<>();
    for (FileStatus f : SharedPaths.list(fs, dir)) {
      if (NAME.matcher(f.getPath().getName()).matches()) {
        out.add(f.getPath());
      }
    }
    return out;
  }

  private static long end(Path p) {
    Matcher m = NAME.matcher(p.getName());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a file-id record: " + p);
    }
    return Long.parseLong(m.group(1));
  }
}
