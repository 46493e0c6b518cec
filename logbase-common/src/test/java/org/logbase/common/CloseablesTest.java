package org.logbase.common;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Closing after a failure, where the close may throw that very failure again (a failed HDFS stream). */
class CloseablesTest {

  @Test
  void aCloseThatThrowsTheFailureAgainLeavesItAsItWas() {
    IOException failure = new IOException("All datanodes are bad. Aborting...");
    Closeable failedStream = () -> {
      throw failure;
    };
    Closeables.closeAfter(failedStream, failure);
    assertArrayEquals(new Throwable[0], failure.getSuppressed());
  }

  @Test
  void aCloseThatFailsOtherwiseIsKeptAsSuppressed() {
    IOException failure = new IOException("write failed");
    IOException closing = new IOException("close failed");
    Closeables.closeAfter(() -> {
      throw closing;
    }, failure);
    assertArrayEquals(new Throwable[] {closing}, failure.getSuppressed());
  }

  @Test
  void closingTwoThingsThatThrowTheSameExceptionThrowsItOnce() {
    IOException shared = new IOException("the file system is closed");
    Closeable c = () -> {
      throw shared;
    };
    IOException thrown = assertThrows(IOException.class, () -> Closeables.closeAll(List.of(c, c)));
    assertSame(shared, thrown);
    assertArrayEquals(new Throwable[0], thrown.getSuppressed());
  }

  @Test
  void aRuntimeFailureToCloseOneStillClosesTheRestAndIsThrownFirst() {
    IllegalStateException first = new IllegalStateException("already closed");
    IOException second = new IOException("close failed");
    boolean[] closed = {false};
    List<Closeable> all = List.of(() -> {
      throw first;
    }, () -> {
      throw second;
    }, () -> closed[0] = true);
    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> Closeables.closeAll(all));
    assertSame(first, thrown);
    assertArrayEquals(new Throwable[] {second}, thrown.getSuppressed());
    assertTrue(closed[0], "the last one was closed too");
  }
}
