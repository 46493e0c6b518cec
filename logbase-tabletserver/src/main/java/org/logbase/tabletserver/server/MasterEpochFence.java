package org.logbase.tabletserver.server;

import org.logbase.common.NotActiveMasterException;

/**
 * The highest master epoch this server has had a command from. A command from an older master (one
 * deposed without noticing yet, acting on a decision its successor may have undone) is refused.
 * Epoch 0 is a command that names none (tools, tests): admitted, and it raises nothing.
 */
final class MasterEpochFence {
  private long highest;

  /** Admits a command of {@code epoch}, or throws {@link NotActiveMasterException}. */
  synchronized void admit(long epoch, String what) {
    if (epoch == 0) {
      return;
    }
    if (epoch < highest) {
      throw new NotActiveMasterException(what + " refused: it comes from a master of epoch " + epoch
          + ", and a master of epoch " + highest + " has given commands since");
    }
    highest = epoch;
  }
}
