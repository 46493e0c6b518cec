package org.logbase.shell;

/** Asks the user to confirm a destructive command. */
@FunctionalInterface
interface Confirmer {
  /** Whether the user said yes to {@code question}. */
  boolean confirm(String question);

  /** For scripts and -e: there is nobody to ask, so the command must say --yes itself. */
  Confirmer NOBODY_TO_ASK = question -> {
    throw new ShellException(question + " Nobody to ask when running commands from -e or a file: add --yes.");
  };
}
