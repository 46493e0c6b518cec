package org.logbase.tpcw.schema;

import java.nio.charset.StandardCharsets;

/**
 * Row keys. A numeric id is written as a two-hex-digit bucket, a colon and ten digits
 * ({@code 7c:0000001234}): the bucket is a hash of the id, so consecutive ids (new orders, new
 * customers) land on every tablet of a table pre-split by bucket, and keys stay readable in the
 * shell. Keys of index tables start with the value they are searched by and end with the id.
 */
public final class Keys {
  /** Separates the parts of a composite key; no part contains it. */
  public static final char SEP = '|';

  private Keys() {}

  /** The key of the row with this numeric id. */
  public static byte[] id(long id) {
    return utf8(idText(id));
  }

  /** The key text of a numeric id: bucket, colon, ten digits. */
  public static String idText(long id) {
    if (id < 0 || id > 9_999_999_999L) {
      throw new IllegalArgumentException("an id is between 0 and 9,999,999,999, got " + id);
    }
    return String.format("%02x:%010d", bucket(id), id);
  }

  /** The bucket (0-255) of an id: a multiplicative hash's top byte. */
  public static int bucket(long id) {
    return (int) ((id * 0x9E3779B97F4A7C15L) >>> 56);
  }

  /** The key text of a string looked up by equality only (a user name): its hash bucket, a colon, the string. */
  public static String hashed(String s) {
    return String.format("%02x:%s", s.hashCode() & 0xff, s);
  }

  /** A child row of an id (an order's line, a cart's line): the parent's key, the separator, the child number. */
  public static byte[] child(long parent, long child) {
    return utf8(idText(parent) + SEP + String.format("%010d", child));
  }

  /** The key prefix of every child row of a parent id. */
  public static byte[] children(long parent) {
    return utf8(idText(parent) + SEP);
  }

  /** The child number of a child row's key. */
  public static long childOf(byte[] key) {
    String k = text(key);
    return Long.parseLong(k.substring(k.lastIndexOf(SEP) + 1));
  }

  /** The parent id of a child row's key. */
  public static long parentOf(byte[] key) {
    String k = text(key);
    return idOf(k.substring(0, k.indexOf(SEP)));
  }

  /** The id of an id key's text. */
  public static long idOf(String idText) {
    return Long.parseLong(idText.substring(idText.indexOf(':') + 1));
  }

  /** The id of an id key. */
  public static long idOf(byte[] key) {
    return idOf(text(key));
  }

  /** Parts joined by the separator. */
  public static byte[] composite(String... parts) {
    return utf8(String.join(String.valueOf(SEP), parts));
  }

  /** A number written so that larger numbers sort first (newest first). */
  public static String descending(long n) {
    return String.format("%010d", 9_999_999_999L - n);
  }

  public static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
