package org.logbase.index;

/**
 * The outcome of splitting a node: the new right sibling and its low bound, the separator entry
 * that must be inserted into the parent level.
 */
record Split(byte[] separatorKey, long separatorTimestamp, Node sibling) {}
