/**
 * Checkpoints and recovery. A checkpoint persists one (tablet, column group) index with a manifest
 * naming the LSN and log position it covers ({@link org.logbase.recovery.CheckpointStore}); the
 * {@link org.logbase.recovery.Checkpointer} decides when; {@link org.logbase.recovery.LogRecovery}
 * loads the newest valid checkpoints and replays the log from the oldest position they cover.
 *
 * <p>Must not append to the log or serve reads: it builds indexes and hands them over.
 */
package org.logbase.recovery;
