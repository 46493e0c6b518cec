/**
 * A workload whose every write can be checked afterwards, and the programs built on it: the storage
 * demo ({@code bin/logbase storage-demo}) and the crash writer that crash tests kill with {@code
 * kill -9}. They live in the distribution, not in the tablet server: the server has no test
 * scaffolding.
 *
 * <p>Uses only the public engine and tablet API.
 */
package org.logbase.dist.storagedemo;
