package org.logbase.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One level of a bulk-loaded tree, left to right: each node with its low bound, from which the
 * level above takes its separators and high keys.
 */
final class BuiltLevel {

  private final int level;
  private final List<Node> nodes = new ArrayList<>();
  private final List<byte[]> lowKeys = new ArrayList<>();
  private long[] lowTimestamps = new long[16];

  BuiltLevel(int level) {
    this.level = level;
  }

  /** Adds the next node; {@code lowKey} is null for the leftmost node (unbounded below). */
  void add(Node node, byte[] lowKey, long lowTimestamp) {
    if (nodes.size() == lowTimestamps.length) {
      lowTimestamps = Arrays.copyOf(lowTimestamps, nodes.size() * 2);
    }
    lowTimestamps[nodes.size()] = lowTimestamp;
    nodes.add(node);
    lowKeys.add(lowKey);
  }

  int size() {
    return nodes.size();
  }

  Node node(int i) {
    return nodes.get(i);
  }

  /**
   * Builds the level above, {@code fill} children per node; the last node may hold fewer.
   * Parents are created first so each can be linked to its right neighbour.
   */
  BuiltLevel parents(int fill) {
    int n = nodes.size();
    int groups = (n + fill - 1) / fill;
    Node[] parents = new Node[groups];
    for (int g = 0; g < groups; g++) {
      parents[g] = new Node(null);
    }
    BuiltLevel above = new BuiltLevel(level + 1);
    KeyPacker separators = new KeyPacker();
    for (int g = 0; g < groups; g++) {
      int from = g * fill;
      int to = Math.min(n, from + fill);
      separators.clear();
      for (int i = from + 1; i < to; i++) {
        separators.add(lowKeys.get(i));
      }
      boolean last = g == groups - 1;
      parents[g].publish(new InnerContents(level + 1, separators.packed(),
          Arrays.copyOfRange(lowTimestamps, from + 1, to), nodes.subList(from, to).toArray(new Node[0]),
          last ? null : lowKeys.get(to), last ? 0 : lowTimestamps[to], last ? null : parents[g + 1]));
      above.add(parents[g], lowKeys.get(from), lowTimestamps[from]);
    }
    return above;
  }
}
