/**
 * The LogBase master: elects one active master among several through ZooKeeper, keeps table
 * metadata (schemas, tablets, their assignment) versioned in ZooKeeper, assigns tablets to live
 * tablet servers and tells them to open or close tablets, reports cluster status, and is the
 * cluster's timestamp oracle ({@link org.logbase.master.TimestampOracle}).
 *
 * <p>Owns: the znodes {@code /masters}, {@code /active-master}, {@code /tables/*},
 * {@code /table-ids} and {@code /timestamp-bound} below the cluster root (see
 * {@link org.logbase.common.ZkPaths}). Tablet servers own {@code /servers/*}; the master only reads
 * them.
 *
 * <p>Must not: read or write table data, touch the log or checkpoints, or sit on the path of a
 * get, put or scan. Clients go to tablet servers directly with the locations the master hands out;
 * only timestamps come from the master.
 */
package org.logbase.master;
