/**
 * The log repository: one segmented log per tablet server through Hadoop's FileSystem API, the only
 * copy of the data. Owns the record and segment formats (docs/log-format.md), group commit ({@link
 * org.logbase.log.LogWriter}), the sequence of segments with LSNs, rolling and retry ({@link
 * org.logbase.log.SegmentedLog}), one segment file being written ({@link
 * org.logbase.log.SegmentFile}), positioned reads ({@link
 * org.logbase.log.RecordReader}) and sequential scans that stop at a torn tail and report corrupt
 * records ({@link org.logbase.log.SegmentScanner}), and the seals that make every reader of a log
 * whose writer is gone stop at the same end ({@link org.logbase.log.LogSeals}).
 *
 * <p>Must not know about tablets, indexes or schemas: records carry ids, and what they mean is the
 * tablet package's business.
 */
package org.logbase.log;
