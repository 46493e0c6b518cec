package org.logbase.sorted;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * The data blocks of one scan. A block in the block cache is taken from there, but a scan adds no
 * block to the cache: a scan reads each block once, and would push out the blocks gets read again
 * (HBase's {@code cacheBlocks=false}). Of the rest, the first {@link #POSITIONED_BLOCKS} are read
 * with positioned reads of the reader's shared stream, as a get reads them, so a short scan opens
 * nothing; after that the scan takes a stream of its own ({@link ScanStreams}) and reads the
 * blocks through it in file order: one sequential read, which HDFS serves from one connection to
 * the DataNode instead of a new request per positioned read. Each block is checked as every block
 * read is ({@link SegmentReaderV1#check}). {@link #close} gives the stream back; a read after it
 * takes one again.
 */
final class ScanBlocks implements BlockSource {
  /** Blocks a scan reads with positioned reads before it opens a stream. */
  static final int POSITIONED_BLOCKS = 2;

  private final SegmentReaderV1 reader;
  private int positioned;
  private FSDataInputStream stream;

  ScanBlocks(SegmentReaderV1 reader) {
    this.reader = reader;
  }

  @Override
  public DataBlock block(int i) throws IOException {
    DataBlock cached = reader.cached(i);
    if (cached != null) {
      return cached;
    }
    if (positioned < POSITIONED_BLOCKS) {
      positioned++;
      return reader.read(i);
    }
    if (stream == null) {
      stream = reader.streams().take();
    }
    BlockInfo info = reader.index().get(i);
    String what = SegmentReaderV1.name(i, info);
    return reader.check(i, reader.file().read(stream, info.offset(), info.storedLength(), what));
  }

  @Override
  public void close() throws IOException {
    FSDataInputStream s = stream;
    stream = null;
    if (s != null) {
      reader.streams().give(s);
    }
  }
}
