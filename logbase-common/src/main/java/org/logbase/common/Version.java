package org.logbase.common;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version of LogBase these classes were built as. */
public final class Version {
  private static final String VERSION = load();

  private Version() {}

  /** For example "0.1.0-SNAPSHOT"; "unknown" when the build did not record it. */
  public static String get() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "unknown");
      return v.startsWith("${") ? "unknown" : v;
    } catch (IOException e) {
      return "unknown";
    }
  }
}
