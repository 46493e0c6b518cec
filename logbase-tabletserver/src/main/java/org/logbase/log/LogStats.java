package org.logbase.log;

/** Counters of a {@link LogWriter} since it opened. */
public record LogStats(long batches, long records, long bytes, long syncs, long rolls, long retries) {
  public double recordsPerBatch() {
    return batches == 0 ? 0 : (double) records / batches;
  }
}
