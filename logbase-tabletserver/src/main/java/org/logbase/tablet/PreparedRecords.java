package org.logbase.tablet;

import java.util.List;
import org.logbase.log.AppendedRecord;
import org.logbase.log.LogRecord;

/**
 * A transaction found prepared but undecided in the log: its PREPARE record and the row versions
 * that wait for its outcome. After a restart these come back as locks until the primary decides.
 */
public record PreparedRecords(long txnId, LogRecord prepare, List<AppendedRecord> rows) {}
