package org.logbase.shell;

import java.time.Duration;
import java.util.Locale;
import org.logbase.client.PolicyChange;
import org.logbase.common.Echo;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.StoragePolicy.BlockCompression;

/**
 * A column group's storage-policy settings as typed after it in {@code create} and {@code alter}:
 * {@code versions=N} (0 or {@code all}: every version), {@code ttl=DURATION} ({@link TtlText}),
 * {@code compression=none|lz4|zstd}. Names of tables, groups and columns never hold '=', so a word
 * with one is a setting.
 */
final class PolicySettings {
  static final String USAGE = "versions=N (0 or all: every version), ttl=DURATION (90s, 30m, 12h, 7d, forever),"
      + " compression=none|lz4|zstd";

  private Integer versions;
  private Duration ttl;
  private BlockCompression compression;

  /** Whether a word is a setting rather than a name or a group. */
  static boolean isSetting(String word) {
    return word.indexOf('=') > 0;
  }

  boolean isEmpty() {
    return versions == null && ttl == null && compression == null;
  }

  /** Reads one {@code name=value} word; a setting given twice or unknown is refused. */
  void add(String word) {
    int eq = word.indexOf('=');
    String name = word.substring(0, eq).strip().toLowerCase(Locale.ROOT);
    String value = word.substring(eq + 1).strip();
    switch (name) {
      case "versions" -> versions = once(versions, name, versions(value));
      case "ttl" -> ttl = once(ttl, name, TtlText.parse(value));
      case "compression" -> compression = once(compression, name, compression(value));
      default -> throw new ShellException("unknown setting '" + Echo.of(name) + "': " + USAGE);
    }
  }

  /** {@code base} with these settings. */
  StoragePolicy applyTo(StoragePolicy base) {
    StoragePolicy p = base;
    if (versions != null) {
      p = p.withMaxVersions(versions);
    }
    if (ttl != null) {
      p = p.withTtlMs(ttl.toMillis());
    }
    if (compression != null) {
      p = p.withCompression(compression);
    }
    return p;
  }

  /** The change {@code alter} asks for. */
  PolicyChange toChange() {
    PolicyChange.Builder b = PolicyChange.builder();
    if (versions != null) {
      b.maxVersions(versions);
    }
    if (ttl != null) {
      b.ttl(ttl);
    }
    if (compression != null) {
      b.compression(compression);
    }
    return b.build();
  }

  /** A policy as {@code describe} prints it, in the form these settings are typed. */
  static String format(StoragePolicy p) {
    return "versions=" + (p.maxVersions() == 0 ? "all" : p.maxVersions()) + " ttl=" + TtlText.format(p.ttlMs())
        + " compression=" + p.compression().name().toLowerCase(Locale.ROOT);
  }

  private static <T> T once(T before, String name, T value) {
    if (before != null) {
      throw new ShellException(name + " is given twice");
    }
    return value;
  }

  private static int versions(String value) {
    if (value.equalsIgnoreCase("all")) {
      return 0;
    }
    int n;
    try {
      n = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw invalidVersions(value, e);
    }
    if (n < 0) {
      throw invalidVersions(value, null);
    }
    return n;
  }

  private static ShellException invalidVersions(String value, Throwable cause) {
    return new ShellException("invalid versions '" + Echo.of(value) + "': a whole number from 0 to "
        + Integer.MAX_VALUE + ", or all", cause);
  }

  private static BlockCompression compression(String value) {
    try {
      return BlockCompression.parse(value);
    } catch (IllegalArgumentException e) {
      throw new ShellException(e.getMessage(), e);
    }
  }
}
