/**
 * The TPC-W population: scale factors, random values, generated rows and the parallel loader that
 * writes them with batch puts. Owns the initial database; must not run interactions or audits.
 */
package org.logbase.tpcw.data;
