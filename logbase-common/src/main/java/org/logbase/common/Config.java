package org.logbase.common;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Flat key/value configuration (conf/logbase.properties plus overrides). Typed getters turn bad
 * values into errors that name the key, instead of a NumberFormatException deep in a server.
 */
public final class Config {
  private final Map<String, String> values;

  private Config(Map<String, String> values) {
    this.values = values;
  }

  public static Config empty() {
    return new Config(new TreeMap<>());
  }

  public static Config of(Map<String, String> values) {
    return new Config(new TreeMap<>(values));
  }

  /** Loads a properties file; a missing file is an error (the caller decides whether one is optional). */
  public static Config load(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      p.load(r);
    }
    Map<String, String> m = new TreeMap<>();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k).trim()));
    return new Config(m);
  }

  /** A copy with {@code key} set. */
  public Config with(String key, Object value) {
    Map<String, String> m = new TreeMap<>(values);
    m.put(key, String.valueOf(value));
    return new Config(m);
  }

  /** A copy with every entry of {@code overrides} set. */
  public Config withAll(Config overrides) {
    Map<String, String> m = new TreeMap<>(values);
    m.putAll(overrides.values);
    return new Config(m);
  }

  public String getString(String key, String defaultValue) {
    return values.getOrDefault(key, defaultValue);
  }

  public long getLong(String key, long defaultValue) {
    return parsed(key, defaultValue, Long::parseLong, "a whole number");
  }

  public double getDouble(String key, double defaultValue) {
    return parsed(key, defaultValue, Double::parseDouble, "a number");
  }

  /** The value of {@code key} parsed (underscores between digits allowed), or the default if unset. */
  private <T> T parsed(String key, T defaultValue, Function<String, T> parse, String what) {
    String v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    try {
      return parse.apply(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("configuration " + key + "=" + v + " is not " + what);
    }
  }

  public int getInt(String key, int defaultValue) {
    return Math.toIntExact(getLong(key, defaultValue));
  }

  public boolean getBoolean(String key, boolean defaultValue) {
    String v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(v);
    }
    throw new IllegalArgumentException("configuration " + key + "=" + v + " is not true or false");
  }

  /** A byte size: a whole number with an optional k, m or g suffix (powers of 1024). */
  public long getBytes(String key, long defaultValue) {
    String v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    return parseBytes(key, v);
  }

  static long parseBytes(String key, String v) {
    String s = v.trim().toLowerCase(Locale.ROOT).replace("_", "");
    long unit = 1;
    if (s.endsWith("b")) {
      s = s.substring(0, s.length() - 1);
    }
    if (!s.isEmpty()) {
      switch (s.charAt(s.length() - 1)) {
        case 'k' -> unit = 1L << 10;
        case 'm' -> unit = 1L << 20;
        case 'g' -> unit = 1L << 30;
        default -> unit = 1;
      }
      if (unit != 1) {
        s = s.substring(0, s.length() - 1);
      }
    }
    try {
      return Math.multiplyExact(Long.parseLong(s), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException(
          "configuration " + key + "=" + v + " is not a byte size (examples: 4096, 64k, 64m, 1g)");
    }
  }

  public <E extends Enum<E>> E getEnum(String key, Class<E> type, E defaultValue) {
    String v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(v)) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        "configuration " + key + "=" + v + " is not one of " + java.util.Arrays.toString(type.getEnumConstants()));
  }

  public Map<String, String> asMap() {
    return Collections.unmodifiableMap(values);
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
