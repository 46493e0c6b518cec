package org.logbase.index;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * A concurrent multiversion B-link tree (Lehman and Yao) with lock-free readers.
 *
 * <p>Every {@link Node} holds one volatile reference to an immutable {@link NodeContents}
 * snapshot (packed keys, timestamps and values, plus a high key and a right link). A node covers
 * {@code [low, high)}; its low bound never changes and its high key only shrinks, so anybody who
 * finds a key at or beyond a node's high key can always move right to find it.
 *
 * <p><b>Readers</b> never lock: they descend reading one snapshot per node and follow the right
 * link whenever the key is beyond the snapshot's high key (the node split after its parent was
 * read).
 *
 * <p><b>Writers</b> hold at most one node monitor at a time. An insert descends like a reader,
 * remembering the node visited at each level, locks the leaf, moves right if the key is now
 * beyond its high key, and publishes a copy-on-write snapshot with one volatile write. When the
 * leaf overflows it splits: the new right sibling is created fully built (not yet reachable),
 * then the left half is published with the sibling as right link and the separator as high key,
 * in one volatile write. Only then, after the leaf's monitor is released, is the separator
 * inserted into the parent with the same lock, move-right, publish steps, possibly splitting the
 * parent in turn. When the top level splits, a new root with the old root as only child is
 * installed under a tree-wide lock (rare); right links make the missing children reachable until
 * their separators arrive.
 *
 * <p><b>Memory</b>: a node costs its {@link Node}, one snapshot object and a handful of exactly
 * sized arrays; there is no object per entry. With fixed-length keys a leaf entry costs its key
 * bytes plus 8 (timestamp) + 8 (pointer) + 4 (meta) bytes, plus about 4 bytes of node overhead.
 */
public final class BLinkTree implements MultiVersionIndex {

  /**
   * Entries per leaf and children per inner node, chosen by measurement with 16-byte random keys:
   * capacities 32/48/64/96/128 retain about 45/42/40.5/39/38 heap bytes per entry, while the
   * copy-on-write cost of an insert grows with the node size. 64 keeps inserts cheap and stays
   * well under the 48-byte budget.
   */
  public static final int DEFAULT_NODE_CAPACITY = 64;

  private static final int MIN_NODE_CAPACITY = 4;
  private static final byte[] MIN_KEY = new byte[0];

  private final int capacity;
  private final Object rootLock = new Object();
  private volatile Node root;
  private final LongAdder size = new LongAdder();

  /** Creates an empty tree with {@link #DEFAULT_NODE_CAPACITY}. */
  public BLinkTree() {
    this(DEFAULT_NODE_CAPACITY);
  }

  /** Creates an empty tree whose nodes hold up to {@code nodeCapacity} entries or children. */
  public BLinkTree(int nodeCapacity) {
    this(checkCapacity(nodeCapacity), new Node(LeafContents.empty()), 0);
  }

  private BLinkTree(int capacity, Node root, long size) {
    this.capacity = capacity;
    this.root = root;
    this.size.add(size);
  }

  private static int checkCapacity(int nodeCapacity) {
    if (nodeCapacity < MIN_NODE_CAPACITY) {
      throw new IllegalArgumentException("node capacity must be at least " + MIN_NODE_CAPACITY + ": " + nodeCapacity);
    }
    return nodeCapacity;
  }

  /** Returns a bulk loader for a tree with {@link #DEFAULT_NODE_CAPACITY}. */
  public static Builder builder() {
    return builder(DEFAULT_NODE_CAPACITY);
  }

  /** Returns a bulk loader for a tree whose nodes hold up to {@code nodeCapacity} entries. */
  public static Builder builder(int nodeCapacity) {
    return new Builder(checkCapacity(nodeCapacity));
  }

  // ---------------------------------------------------------------- reads

  @Override
  public IndexEntry floor(byte[] key, long maxTimestamp) {
    LeafContents leaf = leafFor(key, maxTimestamp);
    int i = leaf.lowerBound(key, maxTimestamp);
    // Every entry of this snapshot is below (key, maxTimestamp): the first one at or above it
    // is the right sibling's first entry, whose key may still equal ours.
    while (i == leaf.keyCount()) {
      if (leaf.right == null) {
        return null;
      }
      leaf = (LeafContents) leaf.right.contents();
      i = 0;
    }
    return leaf.compareKeyAt(i, key) == 0 ? leaf.entryAt(i) : null;
  }

  @Override
  public IndexCursor versions(byte[] key, long maxTimestamp) {
    LeafContents leaf = leafFor(key, maxTimestamp);
    // key + 0x00 is the next key in unsigned lexicographic order, so it bounds key's versions.
    return new LeafCursor(leaf, leaf.lowerBound(key, maxTimestamp), Arrays.copyOf(key, key.length + 1));
  }

  @Override
  public IndexCursor range(byte[] startInclusive, byte[] endExclusive) {
    byte[] start = startInclusive == null ? MIN_KEY : startInclusive;
    LeafContents leaf = leafFor(start, EntryOrder.FIRST_TIMESTAMP);
    return new LeafCursor(leaf, leaf.lowerBound(start, EntryOrder.FIRST_TIMESTAMP), endExclusive);
  }

  @Override
  public long size() {
    return size.sum();
  }

  /** The current root, for structural checks in tests. */
  Node rootNode() {
    return root;
  }

  /** The leaf snapshot whose range contains (key, ts). */
  private LeafContents leafFor(byte[] key, long ts) {
    Node node = root;
    while (true) {
      NodeContents c = node.contents();
      if (c.isBeyondHigh(key, ts)) {
        node = c.right;
      } else if (c instanceof InnerContents inner) {
        node = inner.childFor(key, ts);
      } else {
        return (LeafContents) c;
      }
    }
  }

  // ---------------------------------------------------------------- writes

  @Override
  public void put(byte[] key, long timestamp, long pointer, int meta) {
    Objects.requireNonNull(key, "key");
    Node top = root;
    // path[l] = the node at level l we descended through: the first guess for a split's parent.
    Node[] path = new Node[top.contents().level() + 1];
    Node leaf = descend(top, 0, key, timestamp, path);
    Split split = lockCovering(leaf, key, timestamp,
        (node, current) -> insertEntry(node, (LeafContents) current, key, timestamp, pointer, meta));
    for (int level = 1; split != null; level++) {
      Node parent = level < path.length ? path[level] : parentAt(level, split);
      Split child = split;
      split = lockCovering(parent, child.separatorKey(), child.separatorTimestamp(),
          (node, current) -> insertChild(node, (InnerContents) current, child));
    }
  }

  /**
   * Descends from {@code from} to the node at {@code level} whose range contained (key, ts) when
   * it was read, recording in {@code path} (if not null) the node passed at each level above.
   */
  private static Node descend(Node from, int level, byte[] key, long ts, Node[] path) {
    Node node = from;
    while (true) {
      NodeContents c = node.contents();
      if (c.isBeyondHigh(key, ts)) {
        node = c.right;
      } else if (c.level() == level) {
        return node;
      } else {
        if (path != null) {
          path[c.level()] = node;
        }
        node = ((InnerContents) c).childFor(key, ts);
      }
    }
  }

  /** An edit applied to a node while holding its monitor; returns a split to propagate, or null. */
  @FunctionalInterface
  private interface LockedEdit {
    Split apply(Node node, NodeContents current);
  }

  /**
   * Locks the node covering (key, ts), starting at {@code node} and moving right along the level
   * as needed, and applies {@code edit} to it. Moving right never needs the lock of the node it
   * leaves: once (key, ts) is beyond a high key it stays beyond it, since high keys only shrink.
   */
  private static Split lockCovering(Node node, byte[] key, long ts, LockedEdit edit) {
    while (true) {
      Node next;
      synchronized (node) {
        NodeContents current = node.contents();
        if (!current.isBeyondHigh(key, ts)) {
          return edit.apply(node, current);
        }
        next = current.right;
      }
      node = next;
    }
  }

  private Split insertEntry(Node node, LeafContents leaf, byte[] key, long ts, long pointer, int meta) {
    int i = leaf.lowerBound(key, ts);
    if (i < leaf.keyCount() && leaf.compareAt(i, key, ts) == 0) {
      // Replays during recovery usually carry the same value: then there is nothing to copy.
      if (leaf.pointers[i] != pointer || leaf.metas[i] != meta) {
        node.publish(leaf.withValue(i, pointer, meta));
      }
      return null;
    }
    size.increment();
    return publish(node, leaf.withEntry(i, key, ts, pointer, meta), i);
  }

  private Split insertChild(Node node, InnerContents inner, Split child) {
    int i = inner.lowerBound(child.separatorKey(), child.separatorTimestamp());
    return publish(node, inner.withChild(i, child), i + 1);
  }

  /**
   * Publishes {@code grown} into {@code node}, splitting it if it exceeds the capacity. The new
   * sibling is complete before the left half links to it, so readers see either the old
   * snapshot or both halves, never a partial split.
   */
  private Split publish(Node node, NodeContents grown, int insertedAt) {
    if (grown.size() <= capacity) {
      node.publish(grown);
      return null;
    }
    int mid = splitPoint(grown, insertedAt);
    Node sibling = new Node(grown.upperHalf(mid));
    node.publish(grown.lowerHalf(mid, sibling));
    int separator = grown.separatorIndex(mid);
    return new Split(grown.keyAt(separator), grown.timestamps[separator], sibling);
  }

  /**
   * Halves, except when appending at the very end of the rightmost node (ascending inserts):
   * then the left node keeps the bulk-load fill, so sequential loads do not leave half-empty
   * nodes behind.
   */
  private int splitPoint(NodeContents grown, int insertedAt) {
    boolean appending = grown.right == null && insertedAt == grown.size() - 1;
    return appending ? fillOf(capacity) : grown.size() / 2;
  }

  /** Entries per node when filled sequentially: ~90%, leaving room for later random inserts. */
  private static int fillOf(int capacity) {
    return Math.max(2, capacity * 9 / 10);
  }

  /**
   * Finds the node at {@code level} covering a split's separator when the descent did not pass
   * through that level: the tree grew after the descent, or the split node was the root.
   */
  private Node parentAt(int level, Split split) {
    Node top = root;
    if (top.contents().level() < level) {
      top = growRoot(level);
    }
    return descend(top, level, split.separatorKey(), split.separatorTimestamp(), null);
  }

  /**
   * Installs a root at {@code level} unless another writer already did. The root is always the
   * leftmost node of its level (roots are only ever added above the previous root), so a new
   * root with the old one as single child covers every key; right links reach the other nodes.
   */
  private Node growRoot(int level) {
    synchronized (rootLock) {
      Node current = root;
      if (current.contents().level() < level) {
        current = new Node(InnerContents.rootOver(level, current));
        root = current;
      }
      return current;
    }
  }

  // ---------------------------------------------------------------- bulk load

  /**
   * Bulk loader: builds a tree bottom-up from entries given in index order (key ascending, then
   * timestamp descending), e.g. when recovering from a checkpoint. Nodes are filled to about 90%
   * so that later random inserts do not split every node at once. Not thread-safe; single use.
   */
  public static final class Builder {

    private final int capacity;
    private final int fill;
    private final KeyPacker keys = new KeyPacker();
    private final long[] timestamps;
    private final long[] pointers;
    private final int[] metas;
    private final BuiltLevel leaves = new BuiltLevel(0);
    private Node leaf = new Node(null);
    private byte[] leafLowKey;
    private long leafLowTimestamp;
    private long count;
    private boolean built;

    private Builder(int capacity) {
      this.capacity = capacity;
      this.fill = fillOf(capacity);
      this.timestamps = new long[fill];
      this.pointers = new long[fill];
      this.metas = new int[fill];
    }

    /**
     * Appends the next entry.
     *
     * @throws IllegalArgumentException if (key, ts) is not strictly after the previous entry
     * @throws IllegalStateException if {@link #build()} was already called
     */
    public Builder add(byte[] key, long ts, long pointer, int meta) {
      Objects.requireNonNull(key, "key");
      if (built) {
        throw new IllegalStateException("builder already built");
      }
      int n = keys.count();
      if (n > 0 && keys.compareLast(timestamps[n - 1], key, ts) >= 0) {
        throw new IllegalArgumentException("entries out of index order at entry " + count
            + ": key " + Arrays.toString(key) + " ts " + ts);
      }
      if (n == fill) {
        byte[] low = key.clone();
        Node next = new Node(null);
        finishLeaf(low, ts, next);
        leaf = next;
        leafLowKey = low;
        leafLowTimestamp = ts;
        n = 0;
      }
      keys.add(key);
      timestamps[n] = ts;
      pointers[n] = pointer;
      metas[n] = meta;
      count++;
      return this;
    }

    /** Builds the inner levels over the leaves and returns the tree. */
    public BLinkTree build() {
      if (built) {
        throw new IllegalStateException("builder already built");
      }
      built = true;
      finishLeaf(null, 0, null);
      BuiltLevel level = leaves;
      while (level.size() > 1) {
        level = level.parents(fill);
      }
      return new BLinkTree(capacity, level.node(0), count);
    }

    private void finishLeaf(byte[] highKey, long highTs, Node right) {
      int n = keys.count();
      leaf.publish(new LeafContents(keys.packed(), Arrays.copyOf(timestamps, n),
          Arrays.copyOf(pointers, n), Arrays.copyOf(metas, n), highKey, highTs, right));
      leaves.add(leaf, leafLowKey, leafLowTimestamp);
      keys.clear();
    }
  }
}
