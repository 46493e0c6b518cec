package org.logbase.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.sorted.SortedFixture.drain;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans read through a client that skips HDFS's checksums ({@link ScanFileSystem}), relying on each
 * block's own CRC32C: on two DataNodes with a block damaged in one replica, every scan returns every
 * entry (a block that fails its check is read again with HDFS's checksums, which pass over the
 * damaged replica), with read-ahead and without; damaged in both, the scan fails and serves nothing
 * of that block, and a read of the scans' client returns the damaged byte where HDFS's own fails.
 */
class SortedSegmentScanChecksumsTest {
  /** Readers opened anew, so that the NameNode's shuffled replica order sends some to the damaged one. */
  private static final int SCANS = 24;

  @TempDir
  File tmp;
  private MiniDFSCluster cluster;
  private FileSystem fs;
  private Path file;
  private List<SortedEntry> all;

  @BeforeEach
  void start() throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, tmp.getAbsolutePath());
    conf.setInt("dfs.replication", 2);
    conf.setInt("dfs.client.retry.window.base", 10); // a read that finds every replica damaged gives up in milliseconds
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(2).build();
    cluster.waitActive();
    fs = cluster.getFileSystem();
    NavigableSet<SortedEntry> model = new SortedFixture.Entries(77).rows(800, 3);
    all = List.copyOf(model);
    file = new Path("/scan.lbs");
    SortedFixture.write(fs, file, SegmentOptions.defaults(Compression.LZ4).withBlockBytes(4096), model);
  }

  @AfterEach
  void stop() {
    cluster.shutdown(true);
  }

  @Test
  void aBlockDamagedInOneReplicaIsReadAgainWithHdfsChecksumsAndEveryScanReturnsEveryEntry() throws IOException {
    damage(List.of(0));
    try (ScanFileSystem scans = ScanFileSystem.withoutHdfsChecksums(fs);
        ReadAhead readAhead = ReadAhead.of(4, 1)) {
      assertFalse(scans.verifies(), "on HDFS, scans skip its checksums");
      for (int i = 0; i < SCANS; i++) {
        ReadAhead ra = i % 2 == 0 ? ReadAhead.none() : readAhead; // the block checked as the scan takes it, or read ahead
        try (SortedSegmentReader r = SortedFormats.open(fs, file, BlockCache.none(), ra, scans)) {
          assertEquals(all, drain(r.scan()), "scan " + i + " returns every entry as written");
        }
      }
    }
  }

  @Test
  void scansStreamsSkipHdfsChecksumsOnHdfsAndThroughAWrapperThatReadsAsItsFileSystem() throws IOException {
    long at = damage(List.of(0, 1));
    byte[] written = new byte[1];
    try (ScanFileSystem scans = ScanFileSystem.withoutHdfsChecksums(fs);
        FSDataInputStream in = scans.open(file)) {
      in.readFully(at, written); // no ChecksumException
    }
    assertThrows(IOException.class, () -> {
      try (FSDataInputStream in = fs.open(file)) {
        in.readFully(at, new byte[1]);
      }
    }, "the same read with HDFS's checksums fails");
    try (ScanFileSystem through = ScanFileSystem.withoutHdfsChecksums(new PassThrough(fs));
        ScanFileSystem other = ScanFileSystem.withoutHdfsChecksums(new FilterFileSystem(fs))) {
      assertFalse(through.verifies(), "a wrapper that reads as HDFS does (the server's LeasedFileSystem) is looked through");
      assertTrue(other.verifies(), "any other wrapper is read through as it is");
    }
  }

  /** A wrapper that reads as its file system does. */
  private static final class PassThrough extends FilterFileSystem implements ScanFileSystem.ReadsPassThrough {
    PassThrough(FileSystem fs) {
      super(fs);
    }
  }

  @Test
  void aBlockDamagedInEveryReplicaFailsTheScanAndServesNothingOfIt() throws IOException {
    long damagedAt = damage(List.of(0, 1));
    try (ScanFileSystem scans = ScanFileSystem.withoutHdfsChecksums(fs);
        SortedSegmentReader r = SortedFormats.open(fs, file, BlockCache.none(), ReadAhead.none(), scans)) {
      List<SortedEntry> served = new ArrayList<>();
      EntryIterator it = r.scan();
      assertThrows(IOException.class, () -> {
        while (it.hasNext()) {
          served.add(it.next());
        }
      });
      it.close();
      BlockInfo damaged = r.blocks().stream().filter(b -> b.offset() <= damagedAt
          && damagedAt < b.offset() + b.storedLength()).findFirst().orElseThrow();
      int before = r.blocks().stream().filter(b -> b.offset() < damaged.offset()).mapToInt(BlockInfo::entryCount).sum();
      assertEquals(all.subList(0, before), served, "the entries before the damaged block, and none of it");
    }
  }

  /**
   * Inverts one byte in the middle of a data block read through the scan's stream (not one of the
   * first, which scans read with positioned reads) in the replicas of the given DataNodes; returns its offset.
   */
  private long damage(List<Integer> dataNodes) throws IOException {
    List<BlockInfo> blocks;
    try (SortedSegmentReader r = SortedFormats.open(fs, file, BlockCache.none())) {
      blocks = r.blocks();
    }
    assertTrue(blocks.size() > 20, "many blocks: " + blocks.size());
    BlockInfo target = blocks.get(blocks.size() / 2);
    long at = target.offset() + target.storedLength() / 2;
    byte[] bytes = new byte[Math.toIntExact(fs.getFileStatus(file).getLen())];
    try (FSDataInputStream in = fs.open(file)) {
      in.readFully(0, bytes);
    }
    bytes[Math.toIntExact(at)] ^= (byte) 0xFF;
    ExtendedBlock block = DFSTestUtil.getFirstBlock(fs, file);
    assertEquals(bytes.length, block.getNumBytes(), "the segment is one HDFS block");
    for (int dn : dataNodes) {
      cluster.getMaterializedReplica(dn, block).corruptData(bytes);
    }
    return at;
  }
}
