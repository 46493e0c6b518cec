/**
 * The tablet server process and its storage engine: wires the log, recovery, checkpoints and the
 * tablets together ({@link org.logbase.tabletserver.StorageEngine}), and the command-line tools
 * (demo, crash writer).
 *
 * <p>Owns lifecycle and configuration only; record formats, index structure and read/write logic
 * belong to the log, index and tablet packages.
 */
package org.logbase.tabletserver;
