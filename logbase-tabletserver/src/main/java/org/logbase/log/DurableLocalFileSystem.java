package org.logbase.log;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.logbase.files.ForwardingOutputStream;

/**
 * The local file system with namespace changes as durable as the bytes hsync makes durable. A new
 * file's name is synced into its directory at the file's first hsync (a power loss would otherwise
 * lose a segment whose records were acknowledged: the bytes on disk, the name not); a directory
 * made, and a rename, are synced at once (a power loss would otherwise take a manifest back past a
 * switch whose old files were deleted since). hflush promises to survive a crash of the process,
 * which keeps the kernel's directories, so a file only ever hflushed costs no directory sync. HDFS
 * needs none of this: its NameNode logs every namespace change.
 */
final class DurableLocalFileSystem extends RawLocalFileSystem {
  private final LongAdder directorySyncs = new LongAdder();

  @Override
  protected OutputStream createOutputStreamWithMode(Path f, boolean append, FsPermission permission)
      throws IOException {
    OutputStream out = super.createOutputStreamWithMode(f, append, permission);
    return append ? out : new NameSyncedAtFirstHsync(out, pathToFile(f));
  }

  @Override
  protected boolean mkOneDirWithMode(Path p, File p2f, FsPermission permission) throws IOException {
    boolean made = super.mkOneDirWithMode(p, p2f, permission);
    if (made) {
      syncParentOf(p2f);
    }
    return made;
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    boolean renamed = super.rename(src, dst);
    if (renamed) {
      File from = pathToFile(src).getAbsoluteFile();
      File to = pathToFile(dst).getAbsoluteFile();
      syncParentOf(to);
      if (!from.getParentFile().equals(to.getParentFile())) {
        syncParentOf(from);
      }
    }
    return renamed;
  }

  /** How many directories were synced (for tests and the curious). */
  long directorySyncs() {
    return directorySyncs.sum();
  }

  private void syncParentOf(File f) throws IOException {
    File dir = f.getAbsoluteFile().getParentFile();
    if (dir == null) {
      return;
    }
    try (FileChannel c = FileChannel.open(dir.toPath(), StandardOpenOption.READ)) {
      c.force(true);
    }
    directorySyncs.increment();
  }

  /** A new file's stream: its first hsync syncs its name into its directory too. */
  private final class NameSyncedAtFirstHsync extends ForwardingOutputStream {
    private final File file;
    private volatile boolean nameSynced;

    NameSyncedAtFirstHsync(OutputStream out, File file) {
      super(out);
      this.file = file;
    }

    @Override
    public void hsync() throws IOException {
      super.hsync();
      if (!nameSynced) {
        syncParentOf(file);
        nameSynced = true;
      }
    }
  }
}
