package org.logbase.recovery;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Closeables;
import org.logbase.files.SharedPaths;
import org.logbase.index.BLinkTree;
import org.logbase.index.IndexCursor;
import org.logbase.index.MultiVersionIndex;
import org.logbase.log.LogPointer;
import org.logbase.rpc.GroupCheckpoint;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.TabletId;

/**
 * Writes and loads the index file of one (tablet, column group) checkpoint. A file is written under
 * a temporary name and renamed when complete; its name carries a cluster-wide file id, so two
 * servers never write the same name. What it covers (LSN, log position) is in the tablet's manifest
 * ({@link org.logbase.manifest.TabletManifest}), which also holds its CRC and entry count.
 *
 * <p>Format: {@code "LBCK" version:i32 table:i32 tablet:i32 group:i32 lsn:i64}, then per entry
 * {@code keyLength:i32 key timestamp:i64 pointer:i64 meta:i32}, then {@code -1:i32 count:i64}, then
 * a CRC32C of everything before it.
 */
public final class IndexFiles {
  private static final int MAGIC = 0x4C42434B; // "LBCK"
  private static final int VERSION = 1;
  private static final int HEADER_BYTES = 28;
  private static final int CHUNK = 1 << 20;

  private final FileSystem fs;

  public IndexFiles(FileSystem fs) {
    this.fs = fs;
  }

  /**
   * Writes the entries of {@code gi} to a new file {@code cg<group>-<fileId>.idx} in {@code dir}.
   *
   * @param lsn the LSN the checkpoint covers (kept in the header for the operator)
   */
  public GroupCheckpoint write(GroupIndex gi, Path dir, long fileId, long lsn) throws IOException {
    TabletId id = gi.tablet().id();
    int group = gi.group().id();
    fs.mkdirs(dir);
    Path idx = new Path(dir, String.format("cg%d-%010d.idx", group, fileId));
    Path idxTmp = idx.suffix(".tmp");
    MultiVersionIndex index = gi.index();

    CRC32C crc = new CRC32C();
    long count = 0;
    long maxTs = 0;
    Set<Long> files = new TreeSet<>();
    long lastFile = -1;
    FSDataOutputStream raw = fs.create(idxTmp, true);
    try {
      ChunkWriter out = new ChunkWriter(raw, crc);
      out.buf().putInt(MAGIC).putInt(VERSION).putInt(id.tableId()).putInt(id.tabletId()).putInt(group).putLong(lsn);
      IndexCursor c = index.range(null, null);
      while (c.next()) {
        byte[] k = c.key();
        out.reserve(4 + k.length + 20);
        out.buf().putInt(k.length).put(k).putLong(c.timestamp()).putLong(c.pointer()).putInt(c.meta());
        maxTs = Math.max(maxTs, c.timestamp());
        long file = LogPointer.segment(c.pointer());
        if (file != lastFile) {
          files.add(file);
          lastFile = file;
        }
        count++;
      }
      out.reserve(12);
      out.buf().putInt(-1).putLong(count);
      out.drain();
      raw.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
      raw.hsync();
    } catch (IOException | RuntimeException e) {
      Closeables.closeAfter(raw, e); // not try-with-resources: see Failures.suppress
      throw e;
    }
    raw.close();
    rename(idxTmp, idx);
    return GroupCheckpoint.newBuilder().setColumnGroup(group).setIndexPath(SharedPaths.store(fs, idx))
        .setEntries(count).setIndexCrc((int) crc.getValue()).setMaxTimestamp(maxTs).addAllFileIds(files)
        .setWrittenForTablet(id.tabletId()).build();
  }

  /**
   * Loads an index file and checks it against what the manifest says of it.
   *
   * @param table the table it must belong to
   * @param keep the entries to keep (a daughter keeps the keys of its range); null keeps all
   */
  public BLinkTree load(GroupCheckpoint g, int table, Predicate<byte[]> keep) throws IOException {
    Path file = SharedPaths.resolve(fs, g.getIndexPath());
    long length = fs.getFileStatus(file).getLen();
    if (length < HEADER_BYTES + 16) {
      throw new IOException("index file " + file + " is too short");
    }
    CRC32C crc = new CRC32C();
    BLinkTree.Builder b = BLinkTree.builder();
    long count = 0;
    try (InputStream in = fs.open(file)) {
      ChunkReader r = new ChunkReader(in, length - 4, crc);
      ByteBuffer h = r.need(HEADER_BYTES);
      if (h.getInt() != MAGIC || h.getInt() != VERSION) {
        throw new IOException("index file " + file + " is not a LogBase checkpoint of a known version");
      }
      if (h.getInt() != table || h.getInt() != g.getWrittenForTablet() || h.getInt() != g.getColumnGroup()) {
        throw new IOException("index file " + file + " does not belong to its manifest");
      }
      h.getLong();
      while (true) {
        int keyLength = r.need(4).getInt();
        if (keyLength == -1) {
          break;
        }
        if (keyLength < 0 || keyLength > CHUNK) {
          throw new IOException("index file " + file + " is corrupt (key length " + keyLength + ")");
        }
        ByteBuffer e = r.need(keyLength + 20);
        byte[] key = new byte[keyLength];
        e.get(key);
        long ts = e.getLong();
        long pointer = e.getLong();
        int meta = e.getInt();
        if (keep == null || keep.test(key)) {
          b.add(key, ts, pointer, meta);
        }
        count++;
      }
      long stored = r.need(8).getLong();
      r.finish();
      int trailer = ByteBuffer.wrap(in.readNBytes(4)).getInt();
      if (trailer != (int) crc.getValue() || trailer != g.getIndexCrc()) {
        throw new IOException("index file " + file + " failed its CRC32C check");
      }
      if (stored != count || count != g.getEntries()) {
        throw new IOException("index file " + file + " holds " + count + " entries, expected " + g.getEntries());
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("index file " + file + " is corrupt: " + e.getMessage(), e);
    }
    return b.build();
  }

  /** Whether a file of a tablet's directory is an index file whose writing never finished. */
  static boolean isUnfinished(String name) {
    return name.endsWith(".idx.tmp");
  }

  /** Deletes an index file no checkpoint uses any more. */
  public void delete(String path) throws IOException {
    fs.delete(SharedPaths.resolve(fs, path), false);
  }

  private void rename(Path from, Path to) throws IOException {
    fs.delete(to, false);
    if (!fs.rename(from, to)) {
      throw new IOException("could not rename " + from + " to " + to);
    }
  }

  /** Fills a buffer and writes it out in large chunks, checksumming what it writes. */
  private static final class ChunkWriter {
    private final OutputStream out;
    private final CRC32C crc;
    private final ByteBuffer buf = ByteBuffer.allocate(CHUNK + 64 * 1024);

    ChunkWriter(OutputStream out, CRC32C crc) {
      this.out = out;
      this.crc = crc;
    }

    ByteBuffer buf() {
      return buf;
    }

    void reserve(int n) throws IOException {
      if (n > buf.capacity()) {
        throw new IOException("index entry of " + n + " bytes exceeds the checkpoint chunk size");
      }
      if (buf.remaining() < n) {
        drain();
      }
    }

    void drain() throws IOException {
      crc.update(buf.array(), 0, buf.position());
      out.write(buf.array(), 0, buf.position());
      buf.clear();
    }
  }

  /** Reads a file's first {@code limit} bytes in large chunks, checksumming them. */
  private static final class ChunkReader {
    private final InputStream in;
    private final CRC32C crc;
    private long left;
    private ByteBuffer buf = ByteBuffer.allocate(0);

    ChunkReader(InputStream in, long limit, CRC32C crc) {
      this.in = in;
      this.left = limit;
      this.crc = crc;
    }

    /** A view positioned at the next {@code n} bytes, which it consumes. */
    ByteBuffer need(int n) throws IOException {
      if (buf.remaining() < n) {
        int keep = buf.remaining();
        int want = (int) Math.min(Math.max(CHUNK, n) - keep, left);
        if (keep + want < n) {
          throw new IOException("checkpoint index file ends early");
        }
        ByteBuffer next = ByteBuffer.allocate(keep + want);
        next.put(buf);
        int read = in.readNBytes(next.array(), keep, want);
        if (read != want) {
          throw new IOException("checkpoint index file ends early");
        }
        crc.update(next.array(), keep, want);
        left -= want;
        next.position(0).limit(keep + want);
        buf = next;
      }
      ByteBuffer view = buf.slice(buf.position(), n);
      buf.position(buf.position() + n);
      return view;
    }

    /** Checks that everything up to the limit was consumed. */
    void finish() throws IOException {
      if (buf.hasRemaining() || left != 0) {
        throw new IOException("checkpoint index file has bytes after its end marker");
      }
    }
  }
}
