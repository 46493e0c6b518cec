/**
 * The in-memory multiversion index of one (tablet, column group): a concurrent B-link tree that
 * maps (row key, timestamp) to an opaque (log pointer, meta) pair.
 *
 * <p>Owns: the ordering of entries (row key unsigned-lexicographic ascending, then timestamp
 * descending, so the versions of one key are adjacent and newest first), point lookups of the
 * newest visible version, version and range cursors, and bulk loading from an already ordered
 * stream (recovery from a checkpoint).
 *
 * <p>Must not touch: any I/O, the log or its files, checkpoints, or record formats. The pointer
 * and meta values are never interpreted here; callers (tablets, recovery) give them meaning.
 *
 * <p>Concurrency: readers take no locks and never block; writers lock one node at a time. See
 * {@link org.logbase.index.BLinkTree} for the protocol.
 */
package org.logbase.index;
