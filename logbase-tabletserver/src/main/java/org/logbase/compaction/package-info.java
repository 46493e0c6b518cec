/**
 * Compaction: rewrites a tablet's versions (from the log, through its index, and from earlier
 * sorted segments) into one sorted segment per column group, dropping what no reader can see, and
 * switches the tablet to them with one manifest edit (docs/architecture.md, "Compaction").
 *
 * <p>Owns: which versions survive (the GC horizon, tombstones, maximum versions, time to live), the
 * writing of the new segments (and of a run's temporary sorted runs, deleted when it ends) and the
 * report of a run. Must not know about RPCs, the master or
 * scheduling policy beyond what a run is given; the file format is {@code org.logbase.sorted}'s and
 * the manifest's format {@code org.logbase.manifest}'s.
 */
package org.logbase.compaction;
