package org.logbase.files;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * File ids for a storage engine that runs alone (the storage demo, benchmarks, tests): reserved in
 * blocks by rewriting a small file (temporary name, then rename) before any id of the block is
 * handed out, so a restart never hands out an id again. Not safe for two processes at once; a
 * cluster allocates from ZooKeeper instead.
 */
public final class LocalFileIds implements FileIds {
  static final long BLOCK = 64;

  private final FileSystem fs;
  private final Path file;
  private long next;
  private long reservedEnd;

  /**
   * @param atLeast the first id handed out is at least this (above the ids of files already present)
   */
  public LocalFileIds(FileSystem fs, Path file, long atLeast) throws IOException {
    this.fs = fs;
    this.file = file;
    // A crash between deleting the file and renaming the new one over it leaves only the new one.
    long stored = Math.max(read(file), read(file.suffix(".tmp")));
    this.next = Math.max(Math.max(stored, atLeast), 1);
    this.reservedEnd = next;
  }

  @Override
  public synchronized long next() throws IOException {
    if (next >= reservedEnd) {
      long end = next + BLOCK;
      write(end);
      reservedEnd = end;
    }
    return FileIds.check(next++);
  }

  @Override
  public synchronized void reserveAbove(long id) {
    if (next <= id) {
      next = id + 1;
      reservedEnd = next; // the next id reserves a block from here, on disk, first
    }
  }

  private long read(Path f) throws IOException {
    try (InputStream in = fs.open(f)) {
      String s = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw new IOException(f + " does not hold a file id (" + s + ")", e);
      }
    } catch (FileNotFoundException e) {
      return 1;
    } catch (IOException e) {
      if (f.getName().endsWith(".tmp")) {
        return 1; // a temporary file torn by a crash: the renamed one holds the reservation
      }
      throw e;
    }
  }

  private void write(long end) throws IOException {
    Path tmp = file.suffix(".tmp");
    try (FSDataOutputStream out = fs.create(tmp, true)) {
      out.write(Long.toString(end).getBytes(StandardCharsets.US_ASCII));
      out.hsync();
    }
    fs.delete(file, false);
    if (!fs.rename(tmp, file)) {
      throw new IOException("could not rename " + tmp + " to " + file);
    }
  }
}
