/**
 * Small in-memory stand-ins for the LogBase master and tablet server, served over real gRPC sockets
 * with a real ZooKeeper (Curator's TestingServer), so that the client and the shell are tested
 * against the wire protocol alone. They keep rows in a TreeMap and implement just enough semantics
 * (tablet ranges and assignment, schemas, versions, typed errors) for the client's behaviour to show.
 *
 * <p>Test code only; must not be used to test the real servers.
 */
package org.logbase.client.fake;
