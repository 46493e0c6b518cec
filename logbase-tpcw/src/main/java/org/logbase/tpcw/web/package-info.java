/**
 * The TPC-W web store on LogBase transactions: the 14 interactions (and the paper's two), each the
 * reads and writes of one transaction, index tables maintained in the transactions that change
 * what they index; browser sessions and id sequences. Uses only the client's public API. Must not
 * time, count, retry or report interactions: the driver does that (only the small transactions
 * that take blocks of ids are retried here).
 */
package org.logbase.tpcw.web;
