package org.logbase.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.logbase.files.FileRegistry;
import org.logbase.index.BLinkTree;
import org.logbase.index.IndexCursor;
import org.logbase.log.LogFileSystems;
import org.logbase.log.LogPointer;
import org.logbase.log.LogRecord;
import org.logbase.log.RecordCodec;
import org.logbase.log.RecordReader;
import org.logbase.log.RecordType;
import org.logbase.sorted.EntryIterator;
import org.logbase.sorted.SegmentIdentity;
import org.logbase.sorted.SortedEntry;

/**
 * A compaction's index input read in chunks against the same index read one record at a time: two
 * log files of frames in shuffled key order, with frames no index names in between (other tablets'
 * records, transactions' decisions), some tombstones and transactions' versions, and a tail left out.
 * Whatever the chunk and read sizes, the versions must be the index's, in entry order, each with its
 * record's columns and transaction.
 */
class IndexEntriesTest {
  private static final int KEYS = 120;
  private static final int VERSIONS = 3;

  @TempDir Path dir;
  private final BLinkTree index = new BLinkTree();
  private final Set<Long> tail = new HashSet<>();
  private FileRegistry files;
  private RecordReader reader;
  /** Bytes of the two log files. */
  private long logBytes;

  @BeforeEach
  void writeTheLog() throws IOException {
    FileSystem fs = LogFileSystems.open(URI.create("file:///"), new Configuration());
    files = new FileRegistry(fs, 4);
    reader = new RecordReader(files);
    List<LogRecord> versions = new ArrayList<>();
    Random random = new Random(42);
    for (int k = 0; k < KEYS; k++) {
      byte[] key = String.format("key%04d", k).getBytes(StandardCharsets.UTF_8);
      for (int v = 0; v < VERSIONS; v++) {
        long ts = 1000 + v;
        long txn = random.nextInt(4) == 0 ? 5000 + k : 0;
        if (random.nextInt(8) == 0) {
          versions.add(LogRecord.tombstone(ts, txn, 1, 0, 0, key));
        } else {
          byte[] value = new byte[random.nextInt(200)];
          random.nextBytes(value);
          versions.add(LogRecord.data(ts, txn, 1, 0, 0, key, List.of(new LogRecord.Column("v", value))));
        }
      }
    }
    Collections.shuffle(versions, random);
    int half = versions.size() / 2;
    writeFile(fs, 7, versions.subList(0, half), random);
    writeFile(fs, 9, versions.subList(half, versions.size()), random);
  }

  /** Frames of {@code versions} in file {@code id}, indexed, with frames nobody indexes among them. */
  private void writeFile(FileSystem fs, long id, List<LogRecord> versions, Random random) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[24]); // where a segment's header would be
    long lsn = 1;
    for (LogRecord r : versions) {
      if (random.nextInt(3) == 0) {
        byte[] other = random.nextBoolean() ? RecordCodec.encode(LogRecord.commit(77, 77))
            : RecordCodec.encode(LogRecord.data(5, 0, 2, 0, 0, r.key(), List.of(new LogRecord.Column("x", new byte[300]))));
        RecordCodec.seal(other, lsn++);
        out.write(other);
      }
      byte[] frame = RecordCodec.encode(r);
      RecordCodec.seal(frame, lsn++);
      long pointer = LogPointer.pointer(id, out.size());
      int meta = LogPointer.meta(frame.length, r.type() == RecordType.TOMBSTONE ? LogPointer.FLAG_TOMBSTONE : 0);
      out.write(frame);
      index.put(r.key(), r.timestamp(), pointer, meta);
      if (random.nextInt(10) == 0) {
        tail.add(pointer);
      }
    }
    Path file = dir.resolve("seg-" + id + ".log");
    Files.write(file, out.toByteArray());
    logBytes += out.size();
    files.register(id, new org.apache.hadoop.fs.Path(file.toUri()));
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "700, 300", "3000, 4096", "1000000000, 4194304", "20000, 1"})
  void chunkedReadsGiveTheIndexsVersionsInEntryOrder(long chunkBytes, int windowBytes) throws IOException {
    List<SortedEntry> expected = new ArrayList<>();
    for (IndexCursor c = index.range(null, null); c.next(); ) {
      if (!tail.contains(c.pointer())) {
        LogRecord r = reader.read(c.pointer(), LogPointer.frameLength(c.meta()));
        boolean tombstone = LogPointer.isTombstone(c.meta());
        expected.add(new SortedEntry(c.key(), c.timestamp(), tombstone ? RecordType.TOMBSTONE : RecordType.DATA,
            r.txnId(), tombstone ? List.of() : r.columns()));
      }
    }
    ChunkReader chunks = new ChunkReader(reader, windowBytes, new Throttle(0));
    IndexEntries entries = new IndexEntries(new IndexChunks(index.range(null, null), tail::contains, chunkBytes),
        chunks);
    List<SortedEntry> got = new ArrayList<>();
    while (entries.hasNext()) {
      got.add(entries.next());
    }
    assertEquals(expected, got);
    // Each chunk within the bound (or one version alone), and as many as the bound asks for.
    IndexChunks bounded = new IndexChunks(index.range(null, null), tail::contains, chunkBytes);
    int chunkCount = 0;
    long total = 0;
    for (List<IndexChunks.Pointer> c = bounded.next(); !c.isEmpty(); c = bounded.next()) {
      long bytes = c.stream().mapToLong(IndexChunks.Pointer::cost).sum();
      assertTrue(bytes <= chunkBytes || c.size() == 1, "a chunk of " + bytes + " bytes");
      chunkCount++;
      total += bytes;
    }
    assertEquals(chunkCount, entries.chunksRead());
    assertTrue(chunkCount >= Math.min(expected.size(), total / chunkBytes), chunkCount + " chunks of " + total + " bytes");
    if (windowBytes == 1) {
      assertEquals(expected.size(), chunks.reads(), "one read per record");
    }
    if (chunkBytes >= 1_000_000_000) {
      assertEquals(1, entries.chunksRead());
      assertEquals(2, chunks.reads(), "one read per file: the gaps are small");
    }
  }

  /**
   * The same versions through a group's input, which reads them by regions of the log into sorted
   * runs when they do not fit one chunk: every log byte read at most once (key range by key range it
   * would be once per chunk), more than {@link SortedRuns#MAX_OPEN} runs merged in two steps, and
   * no run left behind.
   */
  @ParameterizedTest
  @CsvSource({"800, 300", "3000, 4096", "20000, 16384", "20000, 1", "1000000000, 4194304"})
  void regionsOfTheLogGiveTheSameVersionsReadingItOnce(long chunkBytes, int windowBytes) throws IOException {
    List<SortedEntry> expected = new ArrayList<>();
    ChunkReader direct = new ChunkReader(reader, windowBytes, new Throttle(0));
    IndexEntries entries = new IndexEntries(new IndexChunks(index.range(null, null), tail::contains, chunkBytes),
        direct);
    while (entries.hasNext()) {
      expected.add(entries.next());
    }
    FileSystem fs = LogFileSystems.open(URI.create("file:///"), new Configuration());
    Path runDir = Files.createDirectories(dir.resolve("runs"));
    ChunkReader byRegion = new ChunkReader(reader, windowBytes, new Throttle(0));
    SortedRuns runs = new SortedRuns(fs, new org.apache.hadoop.fs.Path(runDir.toUri()),
        new SegmentIdentity(99, 1, 1, 0), new Throttle(0));
    List<SortedEntry> got = new ArrayList<>();
    try (GroupInput input = GroupInput.open(index, List.of(), null, null, tail::contains, byRegion, chunkBytes, runs,
        new Throttle(0), "test")) {
      for (EntryIterator e = input.entries(); e.hasNext(); ) {
        got.add(e.next());
      }
      List<LogRegions.Region> plan = LogRegions.plan(index.range(null, null), tail::contains, chunkBytes);
      if (plan.size() > 1) {
        assertEquals(plan.size() + runs.merges(), runs.count(), input.describe());
        assertTrue(byRegion.bytesRead() <= logBytes, byRegion.bytesRead() + " bytes read of a log of " + logBytes
            + " (key range by key range: " + direct.bytesRead() + "); " + input.describe());
      } else {
        assertEquals(0, runs.count());
      }
      if (chunkBytes == 800) {
        assertTrue(runs.count() > SortedRuns.MAX_OPEN + 1 && runs.merges() > 0, input.describe());
      }
      if (chunkBytes == 20000 && windowBytes > 1) {
        assertTrue(direct.bytesRead() > 2 * logBytes, "key range by key range read the log " + direct.bytesRead()
            + " bytes of " + logBytes + "; the test would not tell the two apart");
      }
    }
    assertEquals(expected, got);
    try (Stream<Path> left = Files.list(runDir)) {
      assertEquals(List.of(), left.map(p -> p.getFileName().toString()).toList(), "runs left behind");
    }
  }

  /** A compaction whose third run cannot be written fails, and leaves none of its runs behind. */
  @Test
  void aFailedInputLeavesNoRun() throws IOException {
    FileSystem local = LogFileSystems.open(URI.create("file:///"), new Configuration());
    AtomicInteger creates = new AtomicInteger();
    FileSystem failing = new FilterFileSystem(local) {
      @Override
      public FSDataOutputStream create(org.apache.hadoop.fs.Path f, FsPermission permission, boolean overwrite,
          int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
        if (creates.incrementAndGet() == 3) {
          throw new IOException("disk full (the test's)");
        }
        return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
      }
    };
    Path runDir = Files.createDirectories(dir.resolve("runs"));
    SortedRuns runs = new SortedRuns(failing, new org.apache.hadoop.fs.Path(runDir.toUri()),
        new SegmentIdentity(99, 1, 1, 0), new Throttle(0));
    IOException e = assertThrows(IOException.class, () -> GroupInput.open(index, List.of(), null, null,
        tail::contains, new ChunkReader(reader, 4096, new Throttle(0)), 3000, runs, new Throttle(0), "test"));
    assertEquals("disk full (the test's)", e.getMessage());
    assertEquals(3, creates.get());
    try (Stream<Path> left = Files.list(runDir)) {
      assertEquals(List.of(), left.map(p -> p.getFileName().toString()).toList(), "runs left behind");
    }
  }
}
