package org.logbase.bench.engine;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.log.SegmentFiles;

/**
 * The read baseline: a positioned read ({@code readFully(position, buffer)}) of a row's frame, with
 * one stream per segment opened up front and shared by all threads (as the engine's RecordReader
 * shares its streams). No index lookup, no CRC check, no decoding.
 */
final class PreadBaseline implements Closeable {
  private final LogLocations locations;
  private final FSDataInputStream[] streams;

  PreadBaseline(FileSystem fs, Path logDir, LogLocations locations) throws IOException {
    this.locations = locations;
    this.streams = new FSDataInputStream[(int) locations.maxSegment() + 1];
    for (int s = 0; s < streams.length; s++) {
      Path p = SegmentFiles.path(logDir, s);
      if (fs.exists(p)) {
        streams[s] = fs.open(p);
      }
    }
  }

  /** Reads row {@code row}'s frame. */
  byte[] read(int row) throws IOException {
    byte[] frame = new byte[locations.frameLength(row)];
    streams[(int) locations.segment(row)].readFully(locations.offset(row), frame);
    return frame;
  }

  @Override
  public void close() throws IOException {
    for (FSDataInputStream s : streams) {
      if (s != null) {
        s.close();
      }
    }
  }
}
