package org.logbase.master;

import org.logbase.common.Config;

/**
 * Bounds on what a table may ask of the cluster, checked when it is created, with a clear error:
 * tablets per table and per server (each tablet costs a tablet server indexes, checkpoints and a
 * share of every restart), and the length of a split key (a row key, so at most what a tablet
 * server accepts as one).
 */
record TableLimits(int maxTabletsPerTable, int maxTabletsPerServer, int maxKeyBytes) {
  static final String MAX_TABLETS_PER_TABLE = "master.table.max.tablets";
  static final String MAX_TABLETS_PER_SERVER = "master.server.max.tablets";
  /** The tablet servers' row key limit; split keys are row keys. */
  static final String MAX_KEY_BYTES = "tablet.key.max.bytes";

  static final TableLimits DEFAULT = new TableLimits(4096, 8192, 32767);

  static TableLimits from(Config c) {
    TableLimits l = new TableLimits(c.getInt(MAX_TABLETS_PER_TABLE, DEFAULT.maxTabletsPerTable),
        c.getInt(MAX_TABLETS_PER_SERVER, DEFAULT.maxTabletsPerServer), c.getInt(MAX_KEY_BYTES, DEFAULT.maxKeyBytes));
    if (l.maxTabletsPerTable < 1 || l.maxTabletsPerServer < 1 || l.maxKeyBytes < 1) {
      throw new IllegalArgumentException(MAX_TABLETS_PER_TABLE + ", " + MAX_TABLETS_PER_SERVER + " and "
          + MAX_KEY_BYTES + " must be at least 1: " + l);
    }
    return l;
  }
}
