/**
 * The LogBase admin shell ({@link org.logbase.shell.LogBaseShell}): interactive with JLine line
 * editing and history, or running commands from {@code -e} or a script file. Each line is
 * tokenised here and parsed by picocli into one command class; commands call the public client API.
 *
 * <p>Owns presentation only: parsing arguments, printing results and one-line errors. Must not
 * reach into the client's internals or talk to servers other than through
 * {@link org.logbase.client.LogBaseClient}; stdout carries command output only (logs go to stderr).
 */
package org.logbase.shell;
