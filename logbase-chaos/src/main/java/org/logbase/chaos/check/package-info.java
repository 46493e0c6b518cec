/**
 * Checkers for recorded list-append histories: which anomalies forbidden under (strong) snapshot
 * isolation a run exhibits, found the way Elle does (Kingsbury and Alvaro, VLDB 2020): version
 * orders inferred from the reads, a dependency graph (ww, wr, rw and real-time edges) and cycles in
 * it classified after Adya.
 *
 * <p>Owns pure functions from a {@code List<Txn>} to a {@link Result}. Must
 * not talk to a cluster, read clocks, start threads or keep state between calls: a saved history
 * checked again gives the same answer.
 */
package org.logbase.chaos.check;
