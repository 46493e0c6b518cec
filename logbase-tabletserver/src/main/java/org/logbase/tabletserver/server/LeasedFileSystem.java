package org.logbase.tabletserver.server;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.logbase.common.ServerStoppingException;
import org.logbase.sorted.ScanFileSystem;

/**
 * The tablet server's file system: creates, appends, renames and deletes only while its {@link
 * ServingLease} holds. A server whose lease lapsed (paused, cut off from ZooKeeper) and whose
 * tablets may be served elsewhere must not write a manifest edit (a checkpoint naming its log would
 * send the next owner of the tablet to the wrong log), roll a manifest file over another owner's, or
 * start a log segment the new owners do not know about. Writes to streams already open (the log's
 * current segment) go on: what they add is never acknowledged without the lease, and HDFS lease
 * recovery stops them once another server takes the log over.
 *
 * <p>Reads are the wrapped file system's: scans of sorted segments may read through a client of
 * its own ({@link ScanFileSystem}).
 *
 * <p>The check and the write are two steps: a server paused between them writes once after its
 * lease lapsed. docs/architecture.md ("Failover") says what closes that gap and what does not yet.
 */
final class LeasedFileSystem extends FilterFileSystem implements ScanFileSystem.ReadsPassThrough {
  private final ServingLease lease;

  LeasedFileSystem(FileSystem fs, ServingLease lease) {
    super(fs);
    this.lease = lease;
  }

  private void check(String what, Path f) throws IOException {
    try {
      lease.check();
    } catch (ServerStoppingException e) {
      throw new IOException("not writing " + what + " " + f + ": " + e.getMessage(), e);
    }
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    check("a new file", f);
    return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    check("to the file", f);
    return super.append(f, bufferSize, progress);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    check("(renaming) the file", src);
    return super.rename(src, dst);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    check("(deleting) the file", f);
    return super.delete(f, recursive);
  }
}
