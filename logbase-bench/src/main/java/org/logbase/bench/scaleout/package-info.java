/**
 * The scale-out benchmark's parts in Java (bin/bench-tpcw.sh runs the rest): a cluster of processes
 * to run against, and the charts drawn from the benchmark's CSV files. Must not measure anything
 * itself: the TPC-W driver and YCSB do, through bin/logbase.
 */
package org.logbase.bench.scaleout;
