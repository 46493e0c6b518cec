package org.logbase.sorted;

/**
 * What a sorted segment holds versions of, written in its header: one column group of one tablet of
 * one table, in the file with cluster-wide id {@code fileId} ({@link org.logbase.files.FileIds}).
 */
public record SegmentIdentity(long fileId, int tableId, int tabletId, int columnGroupId) {}
