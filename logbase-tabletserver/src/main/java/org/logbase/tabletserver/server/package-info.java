/**
 * The tablet server process: gRPC services for clients ({@code TabletService}) and the master
 * ({@code TabletAdminService}), registration in ZooKeeper, heartbeats to the active master.
 *
 * <p>Translates between the wire protocol and the storage engine; holds no read or write logic of
 * its own, and never talks to other tablet servers.
 */
package org.logbase.tabletserver.server;
