/**
 * Checkpoints and recovery. A tablet's checkpoint is an index file per column group ({@link
 * org.logbase.recovery.IndexFiles}) and an edit of the tablet's manifest naming them, the data files
 * they point into and the log position the tail continues from ({@link
 * org.logbase.recovery.TabletCheckpoints}); the {@link org.logbase.recovery.Checkpointer} decides
 * when; {@link org.logbase.recovery.Replay} loads the newest usable checkpoints and replays a log
 * from the oldest position they cover, and {@link org.logbase.recovery.LogRecovery} does that for a
 * server's own log when it starts.
 *
 * <p>Must not append to the log or serve reads: it builds indexes and hands them over.
 */
package org.logbase.recovery;
