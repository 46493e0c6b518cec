package org.logbase.log;

import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.io.TempDir;

/** Seals in files, for an engine that is alone: one instance is shared by every reader in the process. */
class FileLogSealsTest extends LogSealsContract {
  @TempDir File dir;
  private LogSeals shared;

  @Override
  protected LogSeals client() throws Exception {
    if (shared == null) {
      FileSystem fs = LogFileSystems.open(dir.toURI(), new Configuration());
      shared = new FileLogSeals(fs, new Path(new File(dir, "log-seals").toURI()));
    }
    return shared;
  }
}
