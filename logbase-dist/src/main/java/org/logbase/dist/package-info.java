/**
 * What bin/ runs beyond the servers themselves: the embedded standalone cluster, readiness checks
 * for start-cluster.sh, and the client side of the demo.
 *
 * <p>Uses servers and the client only through their public entry points.
 */
package org.logbase.dist;
