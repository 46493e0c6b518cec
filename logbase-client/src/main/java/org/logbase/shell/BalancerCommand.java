package org.logbase.shell;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "balancer", description = {
    "Turns the balancer on or off, or shows its setting.",
    "Switches the master's balancer on or off, or shows whether it is on.",
    "When on, it evens out the number of tablets per live server, one move at a time (a server that joins gets"
        + " tablets). Decommissioned servers are drained either way."})
final class BalancerCommand extends ShellCommand {
  @Parameters(index = "0", arity = "0..1", paramLabel = "on|off", description = "on or off; none: show the setting")
  String setting;

  @Override
  void run() {
    if (setting == null) {
      printer().line("balancer is " + (client().admin().balancerEnabled() ? "on" : "off"));
      return;
    }
    boolean on = switch (setting) {
      case "on", "true" -> true;
      case "off", "false" -> false;
      default -> throw new ShellException("balancer takes on or off, not '" + setting + "'");
    };
    boolean before = client().admin().setBalancer(on);
    printer().line("balancer " + (on ? "on" : "off") + " (was " + (before ? "on" : "off") + ")");
  }
}
