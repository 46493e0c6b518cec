/**
 * Types every LogBase module shares: unsigned byte-string ordering, hybrid timestamps, table and
 * column-group schemas, configuration and the typed errors users see.
 *
 * <p>Owns nothing stateful. Must not depend on Hadoop, ZooKeeper or any server-side package: the
 * client library and the YCSB binding pull this module in.
 */
package org.logbase.common;
