/**
 * The audit after a TPC-W run: consistency checks of the whole database on one snapshot (orders,
 * carts, index tables, stock and sequences) and their findings. Reads only; must not repair.
 */
package org.logbase.tpcw.audit;
