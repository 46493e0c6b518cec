package org.logbase.log;

import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Closeables;

/**
 * Seals kept as files in a directory of the shared file system, one per sealed segment ({@code
 * <segment id>}, holding the length): for storage engines that run alone (the storage demo,
 * benchmarks, tests), where every reader is in this process. A seal is written to a temporary file
 * and renamed into place, so a crash leaves it whole or absent. Not safe for two processes at once
 * (a local rename replaces its target); a cluster seals in ZooKeeper instead.
 */
public final class FileLogSeals implements LogSeals {
  private final FileSystem fs;
  private final Path dir;

  public FileLogSeals(FileSystem fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
  }

  @Override
  public synchronized long sealedLength(long segment) throws IOException {
    Path p = path(segment);
    if (!fs.exists(p)) {
      return UNSEALED;
    }
    try (FSDataInputStream in = fs.open(p)) {
      return in.readLong();
    }
  }

  @Override
  public synchronized long seal(long segment, long length) throws IOException {
    long sealed = sealedLength(segment);
    if (sealed != UNSEALED) {
      return sealed;
    }
    fs.mkdirs(dir);
    Path tmp = new Path(dir, "tmp-" + UUID.randomUUID());
    FSDataOutputStream out = fs.create(tmp, false);
    try {
      out.writeLong(length);
    } catch (IOException e) {
      Closeables.closeAfter(out, e); // not try-with-resources: see Failures.suppress
      throw e;
    }
    out.close();
    if (!fs.rename(tmp, path(segment))) {
      fs.delete(tmp, false);
      throw new IOException("could not record the seal of log segment " + segment + " in " + dir);
    }
    return length;
  }

  private Path path(long segment) {
    return new Path(dir, String.format("%020d", segment));
  }
}
