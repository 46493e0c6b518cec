/**
 * The log repository: one segmented log per tablet server through Hadoop's FileSystem API, the only
 * copy of the data. Owns the record and segment formats (docs/log-format.md), group commit and
 * flushing ({@link org.logbase.log.LogWriter}), positioned reads ({@link
 * org.logbase.log.RecordReader}) and sequential scans that stop at a torn tail and report corrupt
 * records ({@link org.logbase.log.SegmentScanner}).
 *
 * <p>Must not know about tablets, indexes or schemas: records carry ids, and what they mean is the
 * tablet package's business.
 */
package org.logbase.log;
