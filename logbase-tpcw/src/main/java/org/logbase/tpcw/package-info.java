/**
 * {@code bin/logbase tpcw}: the command line of the TPC-W driver (load, run, audit). Owns parsing
 * options and exit codes; the work is in the data, driver and audit packages. Uses only the
 * client's public API, so it runs against any cluster.
 */
package org.logbase.tpcw;
