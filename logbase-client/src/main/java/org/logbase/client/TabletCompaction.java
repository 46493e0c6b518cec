package org.logbase.client;

/**
 * One tablet's outcome of {@link Admin#compact}: what its compaction did, or why it was not
 * compacted ({@link #error}; the numbers are 0 then).
 *
 * @param serverId the server the tablet is assigned to
 * @param bytesIn bytes read: log records and earlier sorted segments
 * @param bytesOut bytes of the sorted segments written
 * @param versionsDropped versions no reader could see any more, dropped
 * @param segments sorted segments written
 * @param horizon the GC horizon (a hybrid timestamp) every version above was kept
 * @param millis how long it took on the server
 * @param error empty if the tablet was compacted, else why not
 */
public record TabletCompaction(int tabletId, String serverId, long bytesIn, long bytesOut, long versionsIn,
    long versionsOut, long versionsDropped, int segments, long horizon, long millis, String error) {
  /** Whether the tablet was compacted. */
  public boolean compacted() {
    return error.isEmpty();
  }
}
