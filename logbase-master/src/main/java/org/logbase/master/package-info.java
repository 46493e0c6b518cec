/**
 * The LogBase master: elects one active master among several through ZooKeeper, keeps table
 * metadata (schemas, tablets, their assignment) versioned in ZooKeeper, assigns tablets to live
 * tablet servers and tells them to open or close tablets, and reports cluster status.
 *
 * <p>Owns: the znodes {@code /masters}, {@code /active-master}, {@code /tables/*} and
 * {@code /table-ids} below the cluster root (see {@link org.logbase.common.ZkPaths}). Tablet servers
 * own {@code /servers/*}; the master only reads them.
 *
 * <p>Must not: read or write table data, touch the log or checkpoints, or sit on the path of a
 * get, put or scan. Clients go to tablet servers directly with the locations the master hands out.
 */
package org.logbase.master;
