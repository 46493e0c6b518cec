package org.logbase.manifest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.log.LogFileSystems;

/** {@link ManifestFencingContract} on the local file system: two clients of it. */
class LocalManifestFencingTest extends ManifestFencingContract {
  @TempDir java.nio.file.Path dir;

  @BeforeEach
  void open() throws IOException {
    oldOwner = LogFileSystems.open(dir.toUri(), new Configuration());
    newOwner = LogFileSystems.open(dir.toUri(), new Configuration());
  }

  @AfterEach
  void close() throws IOException {
    oldOwner.close();
    newOwner.close();
  }

  @Override
  Path dir(String name) {
    try {
      return new Path(Files.createDirectories(dir.resolve(name)).toUri());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
