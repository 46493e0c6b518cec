package org.logbase.tpcw;

import java.util.concurrent.Callable;
import org.logbase.client.LogBaseClient;
import org.logbase.tpcw.audit.Auditor;
import org.logbase.tpcw.audit.Findings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code tpcw audit}: the consistency checks; exit code 1 when any fails. */
@Command(name = "audit", mixinStandardHelpOptions = true,
    description = "Check the database after a run: orders, carts, index tables, stock and sequences.")
final class AuditCommand implements Callable<Integer> {
  @ParentCommand TpcwCommand top;
  @Mixin ClusterOptions cluster;

  @Override
  public Integer call() {
    try (LogBaseClient client = cluster.connect()) {
      Findings f = Auditor.audit(client);
      f.print(top.out);
      return f.passed() ? 0 : 1;
    }
  }
}
