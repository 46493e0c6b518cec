/**
 * The tablet server process and its storage engine: wires the log, recovery, checkpoints and the
 * tablets together ({@link org.logbase.tabletserver.StorageEngine}), and keeps the open tablets in
 * one {@link org.logbase.tabletserver.TabletRegistry}.
 *
 * <p>Owns lifecycle and configuration only; record formats, index structure and read/write logic
 * belong to the log, index and tablet packages. Must not hold test scaffolding (crash writers,
 * broken variants): those live with the tests or in logbase-dist.
 */
package org.logbase.tabletserver;
