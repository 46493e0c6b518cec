/**
 * Data files by id. Every data file (a log segment today, a sorted segment once compaction exists,
 * an index checkpoint) gets an id from {@link org.logbase.files.FileIds}: unique in the cluster,
 * never reused, increasing for each writer. {@link org.logbase.files.FileRegistry} knows where each
 * id lives in the shared file system and reads from it through a bounded set of open handles, so a
 * server can read a file another server wrote. {@link org.logbase.files.ReadsInProgress} knows
 * which long reads are running, so that a file they may use is not deleted under them.
 *
 * <p>Owns: id allocation, id-to-path resolution and the reads a deletion waits for. Must not know about records, tablets or
 * manifests: whoever learns of a file (the log when it rolls, a manifest when a tablet opens)
 * registers it.
 */
package org.logbase.files;
