package org.logbase.shell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;

/**
 * Where the shell's settings come from: --config FILE, else conf/logbase.properties under the
 * LogBase home (system property logbase.home or $LOGBASE_HOME) if present; --zookeeper overrides
 * zookeeper.connect, which defaults to localhost:2181.
 */
final class ShellConfig {
  static final String DEFAULT_ZOOKEEPER = "localhost:2181";

  private ShellConfig() {}

  static Config load(Path configFile, String zookeeper) {
    Config base = configFile != null ? read(configFile) : defaults();
    if (zookeeper != null) {
      return base.with(ClusterConfig.ZK_CONNECT, zookeeper);
    }
    if (base.getString(ClusterConfig.ZK_CONNECT, "").isBlank()) {
      return base.with(ClusterConfig.ZK_CONNECT, DEFAULT_ZOOKEEPER);
    }
    return base;
  }

  private static Config defaults() {
    String home = System.getProperty("logbase.home", System.getenv("LOGBASE_HOME"));
    if (home != null) {
      Path conf = Path.of(home, "conf", "logbase.properties");
      if (Files.isRegularFile(conf)) {
        return read(conf);
      }
    }
    return Config.empty();
  }

  private static Config read(Path file) {
    try {
      return Config.load(file);
    } catch (IOException e) {
      throw new ShellException("cannot read configuration file " + file + ": " + e);
    }
  }
}
