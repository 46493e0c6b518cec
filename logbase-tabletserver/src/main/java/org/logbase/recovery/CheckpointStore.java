package org.logbase.recovery;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.index.BLinkTree;
import org.logbase.index.IndexCursor;
import org.logbase.index.MultiVersionIndex;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.IndexApplier.Watermark;
import org.logbase.tablet.TabletId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes and loads index checkpoints under {@code <root>/t<table>-<tablet>/cg<group>/}. A checkpoint
 * at LSN n is {@code ckpt-<n>.idx} (the entries) plus {@code ckpt-<n>.manifest} (what they cover).
 * Both are written under a {@code .tmp} name and renamed when complete, index first; a crash leaves
 * at worst temporary files, which are ignored and cleaned up. The newest two checkpoints are kept.
 *
 * <p>Index file: {@code "LBCK" version:i32 table:i32 tablet:i32 group:i32 lsn:i64}, then per entry
 * {@code keyLength:i32 key timestamp:i64 pointer:i64 meta:i32}, then {@code -1:i32 count:i64}, then
 * a CRC32C of everything before it.
 */
public final class CheckpointStore {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointStore.class);
  private static final int MAGIC = 0x4C42434B; // "LBCK"
  private static final int VERSION = 1;
  private static final int HEADER_BYTES = 28;
  private static final int CHUNK = 1 << 20;
  private static final Pattern MANIFEST = Pattern.compile("ckpt-(\\d{20})\\.manifest");
  private static final int KEEP = 2;

  private final FileSystem fs;
  private final Path root;
  /** The newest checkpoint of each index directory, as written or loaded by this process. */
  private final Map<Path, CheckpointManifest> latest = new ConcurrentHashMap<>();

  public CheckpointStore(FileSystem fs, Path root) {
    this.fs = fs;
    this.root = root;
  }

  /** A loaded checkpoint: the rebuilt index and its manifest. */
  public record Loaded(CheckpointManifest manifest, BLinkTree index) {}

  public Path directory(TabletId tablet, int group) {
    return new Path(root, tablet + "/cg" + group);
  }

  /**
   * Checkpoints one index as of the applier's watermark. Entries applied after the watermark was
   * taken may be in the file too; replay re-applies them idempotently.
   */
  public CheckpointManifest write(GroupIndex gi, Watermark wm) throws IOException {
    // Read after the caller took the watermark: zero means nothing reached this index since the
    // last checkpoint began, so that checkpoint's index file is complete up to the watermark too.
    long updates = gi.updatesSinceCheckpoint();
    TabletId id = gi.tablet().id();
    int group = gi.group().id();
    Path dir = directory(id, group);
    String base = String.format("ckpt-%020d", wm.lsn());
    CheckpointManifest previous = latest.get(dir);
    if (updates == 0 && previous != null) {
      if (previous.lsn() >= wm.lsn()) {
        return previous;
      }
      // An idle index: move its checkpoint forward without rewriting it, so it does not hold
      // every later recovery back to an old log position.
      CheckpointManifest m = new CheckpointManifest(id.tableId(), id.tabletId(), group, wm.lsn(), wm.position(),
          previous.entries(), previous.indexCrc(), previous.maxTimestamp(), previous.indexFile());
      writeManifest(dir, base, m);
      gi.checkpointed(0);
      return m;
    }
    fs.mkdirs(dir);
    Path idx = new Path(dir, base + ".idx");
    Path idxTmp = new Path(dir, base + ".idx.tmp");
    MultiVersionIndex index = gi.index();

    CRC32C crc = new CRC32C();
    long count = 0;
    long maxTs = 0;
    try (FSDataOutputStream raw = fs.create(idxTmp, true)) {
      ChunkWriter out = new ChunkWriter(raw, crc);
      out.buf().putInt(MAGIC).putInt(VERSION).putInt(id.tableId()).putInt(id.tabletId()).putInt(group)
          .putLong(wm.lsn());
      IndexCursor c = index.range(null, null);
      while (c.next()) {
        byte[] k = c.key();
        out.reserve(4 + k.length + 20);
        out.buf().putInt(k.length).put(k).putLong(c.timestamp()).putLong(c.pointer()).putInt(c.meta());
        maxTs = Math.max(maxTs, c.timestamp());
        count++;
      }
      out.reserve(12);
      out.buf().putInt(-1).putLong(count);
      out.drain();
      raw.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
      raw.hsync();
    }
    rename(idxTmp, idx);

    CheckpointManifest m = new CheckpointManifest(id.tableId(), id.tabletId(), group, wm.lsn(), wm.position(),
        count, (int) crc.getValue(), maxTs, idx.getName());
    writeManifest(dir, base, m);
    gi.checkpointed(updates);
    LOG.info("checkpoint of {} at LSN {}: {} entries, replay from {}", gi, wm.lsn(), count, wm.position());
    return m;
  }

  private void writeManifest(Path dir, String base, CheckpointManifest m) throws IOException {
    Path man = new Path(dir, base + ".manifest");
    Path manTmp = new Path(dir, base + ".manifest.tmp");
    try (FSDataOutputStream out = fs.create(manTmp, true)) {
      out.write(m.toBytes());
      out.hsync();
    }
    rename(manTmp, man);
    latest.put(dir, m);
    deleteOlderThan(dir, KEEP);
  }

  /**
   * Loads the newest checkpoint of an index that is complete and intact, falling back to older
   * ones; returns null if there is none.
   *
   * @param problems told about every checkpoint that was skipped, and why
   */
  public Loaded loadNewest(TabletId tablet, int group, Consumer<String> problems) throws IOException {
    Path dir = directory(tablet, group);
    for (Path man : manifestsNewestFirst(dir)) {
      try {
        CheckpointManifest m = CheckpointManifest.parse(readAll(man));
        Loaded loaded = new Loaded(m, loadIndex(new Path(dir, m.indexFile()), m));
        latest.put(dir, m);
        return loaded;
      } catch (IOException e) {
        problems.accept("checkpoint " + man + " is unusable (" + e.getMessage() + "); trying an older one");
      }
    }
    return null;
  }

  /** Deletes temporary files a crash left behind; returns how many. */
  public int removeTemporaryFiles() throws IOException {
    int n = 0;
    if (!fs.exists(root)) {
      return 0;
    }
    var it = fs.listFiles(root, true);
    while (it.hasNext()) {
      Path p = it.next().getPath();
      if (p.getName().endsWith(".tmp")) {
        fs.delete(p, false);
        n++;
      }
    }
    return n;
  }

  private BLinkTree loadIndex(Path file, CheckpointManifest m) throws IOException {
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
      // An idle index's newer manifests reuse an older index file: its LSN may be lower, never higher.
      if (h.getInt() != m.tableId() || h.getInt() != m.tabletId() || h.getInt() != m.columnGroupId()
          || h.getLong() > m.lsn()) {
        throw new IOException("index file " + file + " does not belong to its manifest");
      }
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
        b.add(key, e.getLong(), e.getLong(), e.getInt());
        count++;
      }
      long stored = r.need(8).getLong();
      r.finish();
      int trailer = ByteBuffer.wrap(in.readNBytes(4)).getInt();
      if (trailer != (int) crc.getValue() || trailer != m.indexCrc()) {
        throw new IOException("index file " + file + " failed its CRC32C check");
      }
      if (stored != count || count != m.entries()) {
        throw new IOException("index file " + file + " holds " + count + " entries, expected " + m.entries());
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("index file " + file + " is corrupt: " + e.getMessage(), e);
    }
    return b.build();
  }

  private List<Path> manifestsNewestFirst(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    FileStatus[] files;
    try {
      files = fs.listStatus(dir);
    } catch (FileNotFoundException e) {
      return out;
    }
    for (FileStatus f : files) {
      if (MANIFEST.matcher(f.getPath().getName()).matches()) {
        out.add(f.getPath());
      }
    }
    out.sort(Comparator.comparing((Path p) -> p.getName()).reversed());
    return out;
  }

  private void deleteOlderThan(Path dir, int keep) throws IOException {
    List<Path> manifests = manifestsNewestFirst(dir);
    int cut = Math.min(keep, manifests.size());
    Set<String> inUse = new HashSet<>();
    for (Path man : manifests.subList(0, cut)) {
      inUse.add(CheckpointManifest.parse(readAll(man)).indexFile());
    }
    for (Path man : manifests.subList(cut, manifests.size())) {
      Matcher mm = MANIFEST.matcher(man.getName());
      if (mm.matches()) {
        fs.delete(man, false); // manifest first: an index without a manifest is never used
        String idx = "ckpt-" + mm.group(1) + ".idx";
        if (!inUse.contains(idx)) {
          fs.delete(new Path(dir, idx), false);
        }
      }
    }
  }

  private void rename(Path from, Path to) throws IOException {
    fs.delete(to, false);
    if (!fs.rename(from, to)) {
      throw new IOException("could not rename " + from + " to " + to);
    }
  }

  private byte[] readAll(Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      return in.readAllBytes();
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
