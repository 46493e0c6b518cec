package org.logbase.compaction;

/**
 * What one compaction of a tablet did, for the server's log, the shell's status and the admin call
 * that asked for it.
 *
 * @param tablet the tablet, as "table/id"
 * @param bytesIn bytes read: log records and earlier sorted segments
 * @param bytesOut bytes of the sorted segments written
 * @param versionsIn row versions read
 * @param versionsOut row versions written
 * @param versionsDropped versions no reader can see any more (shadowed below the GC horizon,
 *     deleted, past their time to live or beyond the maximum versions), and tombstones dropped
 * @param segments sorted segments written (one per column group with data)
 * @param horizon the GC horizon it kept every version above (a hybrid timestamp)
 * @param millis how long it took
 */
public record CompactionReport(String tablet, long bytesIn, long bytesOut, long versionsIn, long versionsOut,
    long versionsDropped, int segments, long horizon, long millis) {}
