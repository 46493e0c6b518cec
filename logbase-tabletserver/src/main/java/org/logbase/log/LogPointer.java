package org.logbase.log;

/**
 * Where a record lives, packed for the index: a pointer long {@code (file id << 32) | offset} and a
 * meta int {@code (flags << 28) | frameLength}. The file id is cluster-wide ({@link
 * org.logbase.files.FileIds}), so a pointer means the same on every server. Two primitives per index
 * entry instead of an object keep the index lean.
 */
public final class LogPointer {
  /** Frames are at most 2^28 - 1 bytes (256 MiB), well above any configured record limit. */
  public static final int MAX_FRAME_BYTES = (1 << 28) - 1;
  /** Meta flag: the record is a tombstone; readers may stop without reading it. */
  public static final int FLAG_TOMBSTONE = 1;

  private LogPointer() {}

  public static long pointer(long segment, long offset) {
    if (segment < 0 || segment > 0xffff_ffffL || offset < 0 || offset > 0xffff_ffffL) {
      throw new IllegalArgumentException("segment " + segment + " / offset " + offset + " out of range");
    }
    return (segment << 32) | offset;
  }

  public static long segment(long pointer) {
    return pointer >>> 32;
  }

  public static long offset(long pointer) {
    return pointer & 0xffff_ffffL;
  }

  public static int meta(int frameLength, int flags) {
    if (frameLength < 0 || frameLength > MAX_FRAME_BYTES) {
      throw new IllegalArgumentException("frame length out of range: " + frameLength);
    }
    return (flags << 28) | frameLength;
  }

  public static int frameLength(int meta) {
    return meta & MAX_FRAME_BYTES;
  }

  public static boolean isTombstone(int meta) {
    return ((meta >>> 28) & FLAG_TOMBSTONE) != 0;
  }

  public static String toString(long pointer, int meta) {
    return "file " + segment(pointer) + " @" + offset(pointer) + " len " + frameLength(meta);
  }
}
