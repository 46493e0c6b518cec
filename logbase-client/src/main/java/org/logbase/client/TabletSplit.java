package org.logbase.client;

/**
 * A tablet split by {@link Admin#splitTablet}: {@code leftId} holds the parent's keys below
 * {@code key}, {@code rightId} those from it on, both on {@code server}.
 */
public record TabletSplit(String table, int parentId, int leftId, int rightId, byte[] key, String server) {}
