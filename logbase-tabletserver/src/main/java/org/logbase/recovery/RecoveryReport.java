package org.logbase.recovery;

import java.util.List;
import org.logbase.log.LogDamage;
import org.logbase.log.LogPosition;

/**
 * What recovery did, for the log and for the operator.
 *
 * @param tablets the tablets rebuilt by this one pass over the log
 * @param checkpointsLoaded (tablet, column group) indexes that started from a checkpoint
 * @param checkpointEntries index entries loaded from checkpoints
 * @param replayFrom where log replay started
 * @param recordsReplayed valid records read from the log tail and decoded
 * @param skipped row versions of other tablets in that stretch, passed over by their header undecoded
 * @param applied index entries installed by replay
 * @param undecidedDropped records of transactions with no COMMIT in the log, left out of the indexes
 * @param unknownTablet records of tablets this server does not serve, skipped
 * @param damage torn tails and corrupt stretches met in the log
 * @param problems checkpoints that could not be used, and why
 */
public record RecoveryReport(
    int tablets, int checkpointsLoaded, long checkpointEntries, LogPosition replayFrom, long recordsReplayed,
    long skipped, long bytesReplayed, long applied, long undecidedDropped, long unknownTablet, List<LogDamage> damage,
    List<String> problems, long checkpointMillis, long replayMillis) {

  public long totalMillis() {
    return checkpointMillis + replayMillis;
  }

  @Override
  public String toString() {
    return String.format(
        "recovery of %d tablets: %d checkpoints (%d entries) in %d ms; replayed %d records (%.1f MB) from file %d offset %d"
            + " in %d ms (%d of other tablets passed over); %d index entries applied, %d undecided records dropped, %d for other tablets;"
            + " %d damaged stretches, %d unusable checkpoints",
        tablets, checkpointsLoaded, checkpointEntries, checkpointMillis, recordsReplayed, bytesReplayed / 1e6,
        replayFrom.segment(), replayFrom.offset(), replayMillis, skipped, applied, undecidedDropped, unknownTablet,
        damage.size(), problems.size());
  }
}
