package org.logbase.files;

import java.io.Closeable;
import java.io.IOException;
import java.util.function.LongConsumer;
import org.apache.hadoop.fs.Path;

/**
 * What a writer of data files tells the server's reads of them: each file as it is created, before
 * anything in it is read, and its close, which must not meet a read of it ({@link FileRegistry}
 * says why).
 */
public interface WrittenFiles {
  /** Files nobody reads while they are written (tools and tests of the writer alone). */
  WrittenFiles UNREAD = new WrittenFiles() {
    @Override
    public void created(long id, Path path) {}

    @Override
    public void close(long id, Closeable file) throws IOException {
      file.close();
    }
  };

  /** File {@code id} was created at {@code path}; reads of it may begin. */
  void created(long id, Path path);

  /** Closes {@code file}, the file {@code id} this writer created, with no read of it under way. */
  void close(long id, Closeable file) throws IOException;

  /**
   * Tells the writer, through {@code stopWriting}, of a file it still writes that a read could not
   * read (its DataNode restarted under it, say: nobody knows the length of its last block until the
   * writer closes it). Files nobody reads are never unreadable.
   */
  default void whenUnreadable(LongConsumer stopWriting) {}
}
