/**
 * The YCSB binding: YCSB's read, scan, update, insert and delete on a LogBase table whose fields are
 * the columns of one column group; and {@code bin/logbase ycsb}.
 *
 * <p>Uses only the public client API.
 */
package org.logbase.ycsb;
