package org.logbase.shell;

import org.logbase.common.Echo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "decommission", description = {
    "Drains a tablet server, so that it can be stopped.",
    "It gets no new tablets and its tablets move to the other servers; stop it once 'status' shows it with"
        + " tablets=0. --cancel takes it back."})
final class DecommissionCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "SERVER", description = "the server's id (as status shows it)")
  String server;

  @Option(names = "--cancel", description = "the server takes tablets again (recommission)")
  boolean cancel;

  @Override
  void run() {
    if (cancel) {
      boolean draining = client().admin().clusterStatus().servers().stream()
          .anyMatch(s -> s.serverId().equals(server) && s.draining());
      client().admin().recommission(server);
      printer().line(draining ? "server " + server + " takes tablets again; the balancer gives it some"
          : "server " + Echo.of(server) + " was not being decommissioned: nothing changed");
      return;
    }
    int left = client().admin().decommission(server);
    printer().line("server " + server + " is being decommissioned: its " + left + " tablets move to other servers"
        + " ('status' shows the count going down; stop it at tablets=0)");
  }
}
