package org.logbase.index;

/**
 * One version of a row key as stored in a {@link MultiVersionIndex}.
 *
 * <p>{@code key} is a fresh copy owned by the receiver. Being a record over an array, equality
 * compares the key by reference; compare fields with {@link java.util.Arrays#equals} instead.
 *
 * @param key the row key
 * @param timestamp the version timestamp
 * @param pointer opaque to the index (typically a log position)
 * @param meta opaque to the index (typically record flags and length)
 */
public record IndexEntry(byte[] key, long timestamp, long pointer, int meta) {}
