package org.logbase.chaos.check;

import java.util.List;
import org.logbase.chaos.history.Txn;

/**
 * One anomaly found in a history.
 *
 * @param explanation what was observed and why it is an anomaly, naming the transactions
 * @param txns the transactions involved (for a cycle, in cycle order)
 */
public record Anomaly(AnomalyType type, String explanation, List<Txn> txns) {
  public Anomaly {
    txns = List.copyOf(txns);
  }

  @Override
  public String toString() {
    return type.label() + ": " + explanation;
  }
}
