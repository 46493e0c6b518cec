/**
 * The TPC-W database as LogBase tables: table and column-group layout, split keys, row keys and how
 * values are written. Owns the layout only: it reads and writes no rows.
 */
package org.logbase.tpcw.schema;
