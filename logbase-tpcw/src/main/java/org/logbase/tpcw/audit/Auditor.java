package org.logbase.tpcw.audit;

import org.logbase.client.LogBaseClient;

/**
 * Checks a TPC-W database after a run, on one snapshot: orders against their lines and card
 * transactions, carts against their lines, index tables against their base tables, stock and
 * sequences against the orders placed. Reads everything into memory: meant for the scales a test
 * or a benchmark loads.
 */
public final class Auditor {
  private Auditor() {}

  public static Findings audit(LogBaseClient client) {
    Snapshot snapshot = new Snapshot(client);
    AuditData data = new AuditData(snapshot);
    Findings f = new Findings();
    OrderAudit.run(data, f);
    CartAudit.run(data, f);
    IndexAudit.run(data, snapshot, f);
    StockAudit.run(data, f);
    return f;
  }
}
