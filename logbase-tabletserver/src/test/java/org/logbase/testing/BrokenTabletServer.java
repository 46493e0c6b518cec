package org.logbase.testing;

import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.logbase.tabletserver.server.TabletServer;
import org.logbase.txn.TxnSettings;
import picocli.CommandLine;

/**
 * A tablet server process with a deliberately broken transaction layer, for tests that show a
 * check can fail. The first argument names what is broken; the rest are the tablet server's own:
 *
 * <pre>
 * --broken=validation          first-committer-wins validation off (lost updates)
 * --broken=snapshot-reads      snapshot reads do not wait for committing writers (torn snapshots)
 * --broken=validation,snapshot-reads
 * </pre>
 *
 * <p>Lives with the tests, not in the server: the product has no setting that turns either off.
 */
public final class BrokenTabletServer {
  public static final String BROKEN = "--broken=";

  private BrokenTabletServer() {}

  public static void main(String[] args) {
    if (args.length == 0 || !args[0].startsWith(BROKEN)) {
      System.err.println("usage: BrokenTabletServer --broken=validation|snapshot-reads[,...] <tablet server flags>");
      System.exit(64);
    }
    UnaryOperator<TxnSettings> broken = UnaryOperator.identity();
    for (String what : args[0].substring(BROKEN.length()).split(",")) {
      UnaryOperator<TxnSettings> before = broken;
      broken = switch (what) {
        case "validation" -> s -> before.apply(s).withValidation(false);
        case "snapshot-reads" -> s -> before.apply(s).withReadersWaiting(false);
        default -> throw new IllegalArgumentException("unknown broken part '" + what + "'; known: validation, snapshot-reads");
      };
    }
    List<String> rest = Arrays.asList(args).subList(1, args.length);
    System.exit(new CommandLine(new TabletServer(broken)).execute(rest.toArray(String[]::new)));
  }
}
