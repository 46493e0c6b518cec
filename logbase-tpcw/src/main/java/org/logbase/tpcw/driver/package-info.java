/**
 * The TPC-W driver: mixes, emulated browsers as threads with think times, retries of conflicting
 * transactions, latency histograms, the status line and the summary (table and CSV). Owns timing
 * and counting; must not know what an interaction reads or writes (that is the web package's).
 */
package org.logbase.tpcw.driver;
