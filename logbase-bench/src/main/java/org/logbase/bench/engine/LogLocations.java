package org.logbase.bench.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.log.LogConfig;
import org.logbase.log.LogDamage;
import org.logbase.log.LogPointer;
import org.logbase.log.LogPosition;
import org.logbase.log.LogScanner;
import org.logbase.log.RecordType;

/**
 * Where each row of the kv table lies in a log (segment, offset, frame length), indexed by row
 * number. Found by scanning the log the way recovery does, not by asking the engine, so the read
 * baseline reads exactly the bytes the engine's index points at without depending on the index.
 */
final class LogLocations {
  private final long[] pointers;
  private final int[] lengths;

  private LogLocations(long[] pointers, int[] lengths) {
    this.pointers = pointers;
    this.lengths = lengths;
  }

  /** Scans the log in {@code logDir}, which must hold rows [0, rows) exactly once each. */
  static LogLocations scan(FileSystem fs, Path logDir, int rows) throws IOException {
    long[] pointers = new long[rows];
    int[] lengths = new int[rows];
    List<LogDamage> damage = new ArrayList<>();
    LogScanner.Result r = LogScanner.scan(fs, logDir, LogPosition.START, LogConfig.DEFAULT.maxFrameBytes(),
        damage::add, rec -> {
          if (rec.record().type() != RecordType.DATA) {
            return;
          }
          long row = KvRows.rowOf(rec.record().key());
          if (row >= rows || lengths[(int) row] != 0) {
            throw new IllegalStateException("unexpected or duplicate row " + row + " in the log");
          }
          pointers[(int) row] = rec.pointer();
          lengths[(int) row] = rec.frameLength();
        });
    if (!damage.isEmpty()) {
      throw new IllegalStateException("the log is damaged: " + damage);
    }
    for (int i = 0; i < rows; i++) {
      if (lengths[i] == 0) {
        throw new IllegalStateException("row " + i + " is not in the log (" + r.records() + " records scanned)");
      }
    }
    return new LogLocations(pointers, lengths);
  }

  int rows() {
    return pointers.length;
  }

  long segment(int row) {
    return LogPointer.segment(pointers[row]);
  }

  long offset(int row) {
    return LogPointer.offset(pointers[row]);
  }

  int frameLength(int row) {
    return lengths[row];
  }

  long maxSegment() {
    long max = 0;
    for (long p : pointers) {
      max = Math.max(max, LogPointer.segment(p));
    }
    return max;
  }
}
