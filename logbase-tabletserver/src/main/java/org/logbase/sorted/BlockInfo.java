package org.logbase.sorted;

/**
 * Where one data block of a sorted segment is and how to check it: an entry of the block index.
 *
 * @param lastKey row key of the block's last entry
 * @param lastTimestamp timestamp of the block's last entry
 * @param offset file offset of the stored block
 * @param storedLength bytes stored in the file
 * @param rawLength bytes after decompression
 * @param entryCount entries in the block
 * @param compression how the block is stored (NONE when compressing did not make it smaller)
 * @param crc CRC32C of the stored bytes
 */
@SuppressWarnings("ArrayRecordComponent") // a row key, as everywhere; block infos are not compared
public record BlockInfo(
    byte[] lastKey,
    long lastTimestamp,
    long offset,
    int storedLength,
    int rawLength,
    int entryCount,
    Compression compression,
    int crc) {}
