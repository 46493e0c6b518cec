package org.logbase.tabletserver.server;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.logbase.common.Row;

/**
 * The rows a scan sends, batch by batch, as its stream asks for them. Holds the tablet's cursors
 * open between batches: close it when the call ends however it ends (finished, failed,
 * cancelled); a call to {@link #next} after that fails. Closing may come from another thread
 * than the batches (a cancellation); it leaves the rows handed out readable.
 */
interface RowBatches extends Closeable {
  /**
   * The next rows to send (possibly none while more are to come). Their values may be views of the
   * scan's blocks ({@link org.logbase.tablet.RowScanner}): readable until {@link #release}.
   */
  List<Row> next() throws IOException;

  /** The rows handed out so far were sent (copied into a message): the blocks they view may be reused. */
  void release();

  /** Whether every row has been handed out. */
  boolean exhausted();

}
