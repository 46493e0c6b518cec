/**
 * Tablets: a key range of a table with one multiversion index per column group, and the read and
 * write operations on it (put, get, delete, scan, versions). Also owns the read cache and the
 * timestamp source.
 *
 * <p>Must not write log bytes or files itself: it appends through {@link
 * org.logbase.tablet.RecordStore} and reads through it; indexes are filled by the server's applier
 * once the log has made a write durable.
 */
package org.logbase.tablet;
