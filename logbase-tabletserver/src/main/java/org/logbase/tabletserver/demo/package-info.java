/**
 * A workload whose every write can be checked afterwards, and the programs built on it: the storage
 * demo ({@code bin/logbase demo}) and the crash writer that crash tests kill with {@code kill -9}.
 *
 * <p>Uses only the public engine and tablet API.
 */
package org.logbase.tabletserver.demo;
