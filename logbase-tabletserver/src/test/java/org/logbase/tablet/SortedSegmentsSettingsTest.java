package org.logbase.tablet;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.logbase.common.Config;
import org.logbase.files.ReadsInProgress;

/** Read-ahead settings out of range are refused with the setting's name, not taken up. */
class SortedSegmentsSettingsTest {

  @Test
  void readAheadSettingsOutOfRangeAreRefusedByName() throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    for (String[] bad : new String[][] {{SortedSegments.READ_AHEAD_BLOCKS, "-1"},
        {SortedSegments.READ_AHEAD_BLOCKS, "1000000"}, {SortedSegments.READ_AHEAD_THREADS, "-2"},
        {SortedSegments.READ_AHEAD_THREADS, "100000"}, {SortedSegments.READ_AHEAD_IDLE_MS, "0"}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> new SortedSegments(fs, Config.empty().with(bad[0], bad[1]), new ReadsInProgress()), bad[0] + "=" + bad[1]);
      assertTrue(e.getMessage().contains(bad[0]) && e.getMessage().contains(bad[1]), e.getMessage());
    }
    // 0 turns read-ahead off, and is accepted.
    assertDoesNotThrow(() -> new SortedSegments(fs, Config.empty().with(SortedSegments.READ_AHEAD_BLOCKS, "0"), new ReadsInProgress()).close());
  }
}
