package org.logbase.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.logbase.common.Bytes;

/** The Bloom filter has no false negatives and about the false-positive rate its size promises. */
class BloomFilterTest extends LocalFsTest {
  static final int KEYS = 20_000;
  static final int PROBES = 200_000;

  static byte[] key(String prefix, int i) {
    return Bytes.utf8(prefix + i);
  }

  /** (1 - e^(-k n / m))^k */
  static double expectedRate(int bitsPerKey, int hashes) {
    return Math.pow(1 - Math.exp(-(double) hashes / bitsPerKey), hashes);
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 10, 16})
  void noFalseNegativesAndTheConfiguredFalsePositiveRate(int bitsPerKey) {
    BloomFilter.Builder b = new BloomFilter.Builder();
    for (int i = 0; i < KEYS; i++) {
      b.add(key("row-", i));
    }
    BloomFilter f = BloomFilter.decode(b.build(bitsPerKey).encode());
    for (int i = 0; i < KEYS; i++) {
      assertTrue(f.mightContain(key("row-", i)), "false negative");
    }
    int falsePositives = 0;
    for (int i = 0; i < PROBES; i++) {
      falsePositives += f.mightContain(key("absent-", i)) ? 1 : 0;
    }
    double rate = (double) falsePositives / PROBES;
    double expected = expectedRate(bitsPerKey, f.hashCount());
    System.out.printf("%d bits/key, %d hashes: false positives %.4f%%, expected %.4f%%%n", bitsPerKey,
        f.hashCount(), 100 * rate, 100 * expected);
    assertTrue(rate < 1.3 * expected && rate > 0.7 * expected, rate + " vs " + expected);
  }

  @Test
  void theSegmentsFilterCoversEveryRowAndOnlyAboutOnePercentMore() throws IOException {
    Path file = SortedFixture.path(tmp, "bloom.lbs");
    List<SortedEntry> entries = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      byte[] key = Bytes.utf8(String.format("user%08d", i * 7));
      entries.add(SortedEntry.tombstone(key, 2));
      entries.add(SortedEntry.tombstone(key, 1));
    }
    SortedFixture.write(fs, file, SegmentOptions.defaults(Compression.LZ4), entries);
    try (SortedSegmentReader r = SortedFormats.open(fs, file, BlockCache.none())) {
      assertEquals(KEYS, r.stats().rowCount());
      int falsePositives = 0;
      for (int i = 0; i < 7 * KEYS; i++) {
        boolean present = i % 7 == 0;
        boolean maybe = r.mightContain(Bytes.utf8(String.format("user%08d", i)));
        assertTrue(maybe || !present, "false negative");
        falsePositives += maybe && !present ? 1 : 0;
      }
      double rate = (double) falsePositives / (6 * KEYS);
      System.out.printf("segment filter, 10 bits/key: false positives %.4f%%%n", 100 * rate);
      assertTrue(rate < 0.0125, "rate " + rate);
    }
  }
}
