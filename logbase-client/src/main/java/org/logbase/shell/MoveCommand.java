package org.logbase.shell;

import org.logbase.client.TabletMove;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "move", description = {
    "Moves a tablet to another tablet server, copying no data.",
    "The new server opens it from its checkpoint. Without SERVER, the live server with the fewest tablets takes"
        + " it. 'describe TABLE' lists the tablets and their servers; 'status' the servers."})
final class MoveCommand extends TableCommand {
  @Parameters(index = "1", paramLabel = "TABLET", description = "the tablet's id (as describe shows it)")
  int tablet;

  @Parameters(index = "2", paramLabel = "SERVER", arity = "0..1", description = "the server id to move it to")
  String server;

  @Override
  void run() {
    TabletMove m = client().admin().moveTablet(table, tablet, server);
    printer().line("moved tablet " + m.tabletId() + " of " + m.table() + " from " + m.fromServer() + " to "
        + m.toServer() + " (took no writes for " + m.unavailableMs() + " ms)");
  }
}
