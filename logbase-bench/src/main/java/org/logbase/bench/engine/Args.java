package org.logbase.bench.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import org.logbase.common.Config;

/**
 * {@code --key value} command-line flags. Every flag a program reads is remembered with its default,
 * so {@link #finish} can print them for {@code --help} and reject flags nobody read (a typo would
 * otherwise silently run the defaults).
 */
public final class Args {
  private final Map<String, String> given = new LinkedHashMap<>();
  private final Map<String, String> known = new LinkedHashMap<>();
  private final boolean help;

  private Args(String[] argv) {
    boolean h = false;
    for (int i = 0; i < argv.length; i++) {
      String a = argv[i];
      if (a.equals("--help") || a.equals("-h")) {
        h = true;
      } else if (a.startsWith("--") && i + 1 < argv.length) {
        given.put(a.substring(2), argv[++i]);
      } else {
        throw new IllegalArgumentException("expected --key value, got '" + a + "'");
      }
    }
    this.help = h;
  }

  public static Args parse(String[] argv) {
    return new Args(argv);
  }

  public String string(String key, String def) {
    known.put(key, def);
    return given.getOrDefault(key, def);
  }

  public long longValue(String key, long def) {
    return Long.parseLong(string(key, Long.toString(def)).replace("_", ""));
  }

  public int intValue(String key, int def) {
    return Math.toIntExact(longValue(key, def));
  }

  public double doubleValue(String key, double def) {
    return Double.parseDouble(string(key, Double.toString(def)));
  }

  public boolean bool(String key, boolean def) {
    return Boolean.parseBoolean(string(key, Boolean.toString(def)));
  }

  /** A byte size with an optional k/m/g suffix, parsed like the server's configuration. */
  long bytes(String key, String def) {
    return Config.of(Map.of(key, string(key, def))).getBytes(key, 0);
  }

  /** Prints the flags and exits for --help; fails on flags that no one read. Call after reading all flags. */
  public void finish(String program) {
    if (help) {
      System.out.println("usage: " + program + " [--key value]...");
      known.forEach((k, d) -> System.out.printf("  --%-22s default %s%n", k, d));
      System.exit(0);
    }
    for (String k : given.keySet()) {
      if (!known.containsKey(k)) {
        throw new IllegalArgumentException("unknown flag --" + k + " (known: " + known.keySet() + ")");
      }
    }
  }
}
