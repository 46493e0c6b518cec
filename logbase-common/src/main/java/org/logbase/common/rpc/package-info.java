/**
 * Glue between LogBase's typed errors and gRPC: how a server turns an exception into a status with
 * an error code, and how a caller turns a status back into the exception. The messages and services
 * themselves are generated from logbase.proto into {@code org.logbase.rpc}.
 *
 * <p>Must not hold server or client logic.
 */
package org.logbase.common.rpc;
