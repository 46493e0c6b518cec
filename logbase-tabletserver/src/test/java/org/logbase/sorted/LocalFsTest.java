package org.logbase.sorted;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A test on the local file system (RawLocalFileSystem, as the engine uses it) in a new directory. */
abstract class LocalFsTest {
  @TempDir File tmp;
  FileSystem fs;

  @BeforeEach
  void openFileSystem() throws IOException {
    fs = SortedFixture.localFs();
  }

  @AfterEach
  void closeFileSystem() throws IOException {
    fs.close();
  }
}
