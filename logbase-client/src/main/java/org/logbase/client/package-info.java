/**
 * The LogBase Java client library: {@link org.logbase.client.LogBaseClient} finds the active master
 * through ZooKeeper, {@link org.logbase.client.Admin} manages tables, {@link org.logbase.client.Table}
 * reads and writes rows on the tablet servers, caching tablet locations and refreshing them when a
 * server says it no longer serves a tablet.
 *
 * <p>Owns the client side of the wire protocol only: retries, deadlines, location caching and the
 * public value types. Must not touch server internals (it talks to servers over gRPC, never in
 * process) and must not print or exit: the shell in {@code org.logbase.shell} does that.
 */
package org.logbase.client;
