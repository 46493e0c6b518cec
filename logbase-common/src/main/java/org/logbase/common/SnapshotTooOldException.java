package org.logbase.common;

/**
 * A read as of a timestamp below the GC horizon of the data it needs: compaction may have dropped
 * versions such a snapshot would see, so it is refused rather than answered wrongly. Read at a later
 * timestamp, or keep snapshots within the retention window ({@code compaction.retention.ms}).
 */
public class SnapshotTooOldException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public SnapshotTooOldException(String message) {
    super(message);
  }
}
