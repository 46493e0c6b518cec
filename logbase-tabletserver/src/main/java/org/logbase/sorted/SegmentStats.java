package org.logbase.sorted;

/**
 * What a sorted segment's header, index and footer say of it as a whole.
 *
 * @param compression the compression the segment was written with (a block that did not shrink is
 *     stored raw; see {@link BlockInfo#compression})
 * @param rowCount distinct row keys
 * @param minKey smallest row key, null if the segment is empty
 * @param maxKey largest row key, null if the segment is empty
 * @param minTimestamp smallest timestamp, 0 if empty
 * @param maxTimestamp largest timestamp, 0 if empty
 * @param rawBytes the data blocks' bytes before compression
 * @param storedBytes the data blocks' bytes as stored
 * @param fileBytes the whole file
 */
@SuppressWarnings("ArrayRecordComponent") // row keys, as everywhere; stats are not compared whole
public record SegmentStats(
    int formatVersion,
    SegmentIdentity identity,
    Compression compression,
    long entryCount,
    long rowCount,
    long tombstoneCount,
    byte[] minKey,
    byte[] maxKey,
    long minTimestamp,
    long maxTimestamp,
    long rawBytes,
    long storedBytes,
    int blockCount,
    long fileBytes) {

  /** Raw bytes per stored byte of the data blocks (1 for an empty segment). */
  public double compressionRatio() {
    return storedBytes == 0 ? 1 : (double) rawBytes / storedBytes;
  }
}
