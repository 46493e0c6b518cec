package org.logbase.sorted;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Bytes;
import org.logbase.log.LogFileSystems;
import org.logbase.log.LogRecord.Column;
import org.logbase.log.RecordType;

/** Files, random entries and the model (a sorted set) for the sorted segment tests. */
final class SortedFixture {
  static final SegmentIdentity ID = new SegmentIdentity(42, 7, 3, 1);
  private static final String[] WORDS = {
    "log", "base", "tablet", "segment", "sorted", "row", "version", "the", "of", "and", "compaction",
    "bloom", "block", "index", "timestamp", "column", "group", "snapshot", "merge", "cloud"};

  private SortedFixture() {}

  /** The local file system without checksum files, as the engine uses it. */
  static FileSystem localFs() throws IOException {
    return LogFileSystems.open(URI.create("file:///"), new Configuration());
  }

  static Path path(File dir, String name) {
    return new Path(dir.toURI().toString(), name);
  }

  static File local(Path p) {
    return new File(p.toUri());
  }

  static SegmentStats write(FileSystem fs, Path path, SegmentOptions options, Collection<SortedEntry> entries)
      throws IOException {
    try (SortedSegmentWriter w = SortedFormats.current().create(fs, path, ID, options)) {
      for (SortedEntry e : entries) {
        w.append(e);
      }
      return w.finish();
    }
  }

  static List<SortedEntry> drain(EntryIterator it) throws IOException {
    List<SortedEntry> out = new ArrayList<>();
    while (it.hasNext()) {
      out.add(it.next());
    }
    return out;
  }

  /** Copies a file with one byte inverted at {@code offset}. */
  static Path flipped(Path original, long offset, String name) throws IOException {
    byte[] bytes = Files.readAllBytes(local(original).toPath());
    bytes[Math.toIntExact(offset)] ^= (byte) 0xFF;
    Path out = new Path(original.getParent(), name);
    Files.write(local(out).toPath(), bytes);
    return out;
  }

  static NavigableSet<SortedEntry> model() {
    return new TreeSet<>(SortedEntry.ORDER);
  }

  /** The model's answer to {@code get(key, asOf)}. */
  static SortedEntry modelGet(NavigableSet<SortedEntry> model, byte[] key, long asOf) {
    SortedEntry e = model.ceiling(SortedEntry.tombstone(key, asOf));
    return e != null && Arrays.equals(e.rowKey(), key) ? e : null;
  }

  /** The model's entries of rows in [start, end). */
  static List<SortedEntry> modelRange(NavigableSet<SortedEntry> model, byte[] start, byte[] end) {
    List<SortedEntry> out = new ArrayList<>();
    for (SortedEntry e : model) {
      if (Bytes.inRange(e.rowKey(), start, end)) {
        out.add(e);
      }
    }
    return out;
  }

  /** Random keys, timestamps and mostly compressible values from one seed. */
  static final class Entries {
    final Random random;

    Entries(long seed) {
      this.random = new Random(seed);
    }

    /** Keys of 1 to 12 bytes over a small alphabet, so they share prefixes. */
    byte[] key() {
      byte[] k = new byte[1 + random.nextInt(12)];
      for (int i = 0; i < k.length; i++) {
        k[i] = (byte) (random.nextInt(8) == 0 ? random.nextInt(256) : 'a' + random.nextInt(6));
      }
      return k;
    }

    /** Words: compresses well. */
    byte[] text(int approxBytes) {
      StringBuilder sb = new StringBuilder();
      while (sb.length() < approxBytes) {
        sb.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
      }
      return Bytes.utf8(sb.toString());
    }

    byte[] noise(int bytes) {
      byte[] b = new byte[bytes];
      random.nextBytes(b);
      return b;
    }

    List<Column> columns() {
      int n = random.nextInt(4);
      List<Column> cols = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        byte[] v = random.nextInt(10) == 0 ? noise(random.nextInt(64)) : text(random.nextInt(300));
        cols.add(new Column("c" + i, v));
      }
      return cols;
    }

    /** A tombstone one time in ten; a transaction's version (with its id) one time in four. */
    SortedEntry entry(byte[] key, long ts) {
      boolean tombstone = random.nextInt(10) == 0;
      long txnId = random.nextInt(4) == 0 ? 1 + random.nextInt(Integer.MAX_VALUE) * 65536L : 0;
      return new SortedEntry(key, ts, tombstone ? RecordType.TOMBSTONE : RecordType.DATA, txnId,
          tombstone ? List.of() : columns());
    }

    /** Up to {@code rows} rows with 1 to {@code maxVersions} versions each, distinct timestamps per row. */
    NavigableSet<SortedEntry> rows(int rows, int maxVersions) {
      NavigableSet<SortedEntry> model = model();
      for (int r = 0; r < rows; r++) {
        byte[] key = key();
        int versions = 1 + random.nextInt(maxVersions);
        for (int v = 0; v < versions; v++) {
          model.add(entry(key, 1 + random.nextInt(1_000_000)));
        }
      }
      return model;
    }
  }
}
