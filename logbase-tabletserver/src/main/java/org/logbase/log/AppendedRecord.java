package org.logbase.log;

/**
 * A record that the log has made durable, with its LSN assigned, and where it lies.
 *
 * @param pointer see {@link LogPointer#pointer}
 * @param frameLength bytes of the record's frame at that place
 */
public record AppendedRecord(LogRecord record, long pointer, int frameLength) {}
