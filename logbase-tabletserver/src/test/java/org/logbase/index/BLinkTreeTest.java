package org.logbase.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.index.IndexAssertions.assertEntriesEqual;
import static org.logbase.index.IndexAssertions.assertEntryEquals;
import static org.logbase.index.IndexAssertions.assertSameContent;
import static org.logbase.index.IndexAssertions.bytes;
import static org.logbase.index.IndexAssertions.drain;
import static org.logbase.index.IndexAssertions.hex;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BLinkTreeTest {

  /** Few distinct bytes, including 0x00 and >= 0x80, so keys collide, nest as prefixes, and test unsigned order. */
  private static final byte[] ALPHABET = bytes(0x00, 0x01, 0x61, 0x7f, 0x80, 0xfe, 0xff);

  private static byte[] randomKey(Random random) {
    byte[] key = new byte[random.nextInt(5)];
    for (int i = 0; i < key.length; i++) {
      key[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return key;
  }

  private static long randomTimestamp(Random random) {
    return switch (random.nextInt(40)) {
      case 0 -> Long.MAX_VALUE;
      case 1 -> 0;
      case 2 -> Long.MIN_VALUE;
      default -> random.nextInt(24);
    };
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Compares floor, versions and range of the tree and the model for random arguments. */
  private static void compareQueries(ReferenceIndex model, MultiVersionIndex tree, Random random, int queries) {
    for (int q = 0; q < queries; q++) {
      byte[] key = randomKey(random);
      long ts = randomTimestamp(random);
      String at = hex(key) + "@" + ts;
      assertEntryEquals(model.floor(key, ts), tree.floor(key, ts), "floor " + at);
      assertEntriesEqual(model.versions(key, ts), drain(tree.versions(key, ts)), "versions " + at);
      byte[] start = random.nextInt(8) == 0 ? null : randomKey(random);
      byte[] end = random.nextInt(8) == 0 ? null : randomKey(random);
      assertEntriesEqual(model.range(start, end), drain(tree.range(start, end)),
          "range " + hex(start) + ".." + hex(end));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 5, 16, 64})
  void randomPutsMatchReferenceModel(int capacity) {
    Random random = new Random(42 + capacity);
    BLinkTree tree = new BLinkTree(capacity);
    ReferenceIndex model = new ReferenceIndex();
    for (int op = 1; op <= 20_000; op++) {
      byte[] key = randomKey(random);
      long ts = randomTimestamp(random);
      long pointer = random.nextLong();
      int meta = random.nextInt();
      tree.put(key, ts, pointer, meta);
      model.put(key, ts, pointer, meta);
      if (op % 2_000 == 0) {
        compareQueries(model, tree, random, 200);
      }
    }
    assertTrue(model.size() < 20_000, "the test should replace existing versions");
    assertSameContent(model, tree, "capacity " + capacity);
    TreeInvariants.check(tree, capacity);
  }

  @Test
  void emptyTreeHasNothing() {
    BLinkTree tree = new BLinkTree();
    assertNull(tree.floor(utf8("a"), Long.MAX_VALUE));
    assertFalse(tree.versions(utf8("a"), Long.MAX_VALUE).next());
    assertFalse(tree.range(null, null).next());
    assertEquals(0, tree.size());
    TreeInvariants.check(tree, BLinkTree.DEFAULT_NODE_CAPACITY);
    TreeInvariants.check(BLinkTree.builder().build(), BLinkTree.DEFAULT_NODE_CAPACITY);
  }

  @Test
  void keysAreOrderedUnsignedThenByPrefix() {
    BLinkTree tree = new BLinkTree(4);
    byte[][] ascending = {bytes(), bytes(0x00), bytes(0x00, 0x00), bytes(0x01), bytes(0x7f), bytes(0x7f, 0xff),
        bytes(0x80), bytes(0x80, 0x00), bytes(0xff), bytes(0xff, 0xff)};
    for (int i = ascending.length - 1; i >= 0; i--) {
      tree.put(ascending[i], 1, i, i);
    }
    List<IndexEntry> scanned = drain(tree.range(null, null));
    assertEquals(ascending.length, scanned.size());
    for (int i = 0; i < ascending.length; i++) {
      assertEquals(hex(ascending[i]), hex(scanned.get(i).key()), "position " + i);
    }
  }

  @Test
  void floorPicksNewestVersionAtOrBelowTimestamp() {
    BLinkTree tree = new BLinkTree(4);
    byte[] k = utf8("k");
    for (long ts : new long[] {10, 30, 20}) {
      tree.put(k, ts, ts * 100, (int) ts);
    }
    tree.put(utf8("j"), 5, 1, 1);
    tree.put(utf8("ka"), 5, 2, 2);
    assertNull(tree.floor(k, 9));
    assertEquals(10, tree.floor(k, 10).timestamp());
    assertEquals(10, tree.floor(k, 19).timestamp());
    assertEquals(2000, tree.floor(k, 29).pointer());
    assertEquals(30, tree.floor(k, 30).timestamp());
    assertEquals(30, tree.floor(k, Long.MAX_VALUE).timestamp());
    assertNull(tree.floor(utf8("kb"), Long.MAX_VALUE), "absent key between present ones");
    assertNull(tree.floor(bytes(), Long.MAX_VALUE), "empty key absent");
    assertNull(tree.floor(utf8("ka"), 4), "prefix-extended key exists but only with a newer version");
    assertEquals(List.of(20L, 10L), timestamps(drain(tree.versions(k, 25))));
    assertEquals(List.of(), timestamps(drain(tree.versions(k, 9))));
  }

  @Test
  void floorFollowsRightLinkWhenVersionsStraddleLeaves() {
    // Capacity 4 fills leaves with 3 entries: [a@1 k@9 k@8] [k@6 k@5 z@1].
    BLinkTree tree = BLinkTree.builder(4)
        .add(utf8("a"), 1, 1, 0).add(utf8("k"), 9, 2, 0).add(utf8("k"), 8, 3, 0)
        .add(utf8("k"), 6, 4, 0).add(utf8("k"), 5, 5, 0).add(utf8("z"), 1, 6, 0)
        .build();
    InnerContents root = (InnerContents) tree.rootNode().contents();
    assertEquals(2, root.children.length, "test needs the versions of k split over two leaves");
    // (k, 7) lies in the first leaf's range, after its last entry: the answer is the right leaf's first.
    assertEquals(6, tree.floor(utf8("k"), 7).timestamp());
    assertEquals(4, tree.floor(utf8("k"), 7).pointer());
    assertEquals(8, tree.floor(utf8("k"), 8).timestamp());
    assertNull(tree.floor(utf8("k"), 4));
    assertNull(tree.floor(utf8("b"), 100), "first entry of the right leaf has another key");
    assertEquals(List.of(8L, 6L, 5L), timestamps(drain(tree.versions(utf8("k"), 8))));
  }

  @Test
  void rangeBoundsAreInclusiveExclusive() {
    BLinkTree tree = new BLinkTree(4);
    ReferenceIndex model = new ReferenceIndex();
    String[] keys = {"", "a", "ab", "abc", "b", "ba", "c"};
    for (String key : keys) {
      for (long ts = 1; ts <= 3; ts++) {
        tree.put(utf8(key), ts, ts, key.length());
        model.put(utf8(key), ts, ts, key.length());
      }
    }
    String[][] ranges = {{"a", "b"}, {"ab", "ab"}, {"b", "a"}, {"ab", "abc"}, {"abc", "abd"}, {"", "a"},
        {"zz", null}, {null, ""}, {null, "b"}, {"a\0", "ab"}, {"bb", "c"}, {null, null}};
    for (String[] r : ranges) {
      byte[] start = r[0] == null ? null : utf8(r[0]);
      byte[] end = r[1] == null ? null : utf8(r[1]);
      assertEntriesEqual(model.range(start, end), drain(tree.range(start, end)), r[0] + ".." + r[1]);
    }
    assertEquals(3, drain(tree.range(utf8("a"), utf8("a\0"))).size(), "exactly the versions of a");
    assertEquals(3, drain(tree.versions(utf8("a"), Long.MAX_VALUE)).size(), "versions of a exclude a's extensions");
  }

  @Test
  void putReplacesSameKeyAndTimestamp() {
    BLinkTree tree = new BLinkTree(4);
    for (int i = 0; i < 10; i++) {
      tree.put(utf8("r" + i), 7, i, i);
    }
    tree.put(utf8("r3"), 7, 99, -1);
    tree.put(utf8("r3"), 7, 99, -1);
    assertEquals(10, tree.size());
    IndexEntry e = tree.floor(utf8("r3"), 7);
    assertEquals(99, e.pointer());
    assertEquals(-1, e.meta());
    TreeInvariants.check(tree, 4);
  }

  @Test
  void callerMayReuseKeyArrayAfterPut() {
    BLinkTree tree = new BLinkTree(4);
    byte[] buffer = utf8("aaaa");
    for (int i = 0; i < 20; i++) {
      buffer[3] = (byte) ('a' + i);
      tree.put(buffer, 1, i, 0);
    }
    byte[] copy = tree.floor(utf8("aaab"), 1).key();
    copy[0] = 'z';
    assertEquals(1, tree.floor(utf8("aaab"), 1).pointer(), "returned keys are copies");
    assertEquals(20, drain(tree.range(null, null)).size());
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8, 64})
  void bulkLoadEqualsIncrementalInserts(int capacity) {
    Random random = new Random(7 + capacity);
    ReferenceIndex model = new ReferenceIndex();
    BLinkTree incremental = new BLinkTree(capacity);
    for (int i = 0; i < 10_000; i++) {
      byte[] key = randomKey(random);
      long ts = randomTimestamp(random);
      model.put(key, ts, i, -i);
      incremental.put(key, ts, i, -i);
    }
    BLinkTree.Builder builder = BLinkTree.builder(capacity);
    for (IndexEntry e : model.all()) {
      builder.add(e.key(), e.timestamp(), e.pointer(), e.meta());
    }
    BLinkTree bulk = builder.build();
    TreeInvariants.check(bulk, capacity);
    assertSameContent(model, bulk, "bulk");
    assertEntriesEqual(drain(incremental.range(null, null)), drain(bulk.range(null, null)), "bulk vs incremental");
    compareQueries(model, bulk, random, 300);

    // A bulk-loaded tree keeps working as a normal one.
    for (int i = 0; i < 5_000; i++) {
      byte[] key = randomKey(random);
      long ts = randomTimestamp(random);
      model.put(key, ts, i, i);
      bulk.put(key, ts, i, i);
    }
    assertSameContent(model, bulk, "bulk after puts");
    TreeInvariants.check(bulk, capacity);
  }

  @Test
  void bulkLoadBuildsSeveralLevels() {
    int n = 200_000;
    BLinkTree.Builder builder = BLinkTree.builder(16);
    for (int i = 0; i < n; i++) {
      builder.add(bigEndian(i), 1, i, 0);
    }
    BLinkTree tree = builder.build();
    assertTrue(tree.rootNode().contents().level() >= 3);
    TreeInvariants.check(tree, 16);
    assertEquals(n, tree.size());
    for (int i = 0; i < n; i += 997) {
      assertEquals(i, tree.floor(bigEndian(i), 1).pointer());
    }
  }

  @Test
  void builderRejectsEntriesOutOfOrder() {
    assertOutOfOrder(utf8("b"), 5, utf8("a"), 5);
    assertOutOfOrder(utf8("a"), 5, utf8("a"), 6);
    assertOutOfOrder(utf8("a"), 5, utf8("a"), 5);
    assertOutOfOrder(utf8("ab"), 5, utf8("a"), 5);
    assertOutOfOrder(bytes(0x80), 5, bytes(0x7f), 5);
    // The check also holds across leaf boundaries.
    BLinkTree.Builder builder = BLinkTree.builder(4);
    for (int i = 0; i < 10; i++) {
      builder.add(bigEndian(i), 1, i, 0);
    }
    assertThrows(IllegalArgumentException.class, () -> builder.add(bigEndian(9), 1, 0, 0));
  }

  @Test
  void builderIsSingleUse() {
    BLinkTree.Builder builder = BLinkTree.builder().add(utf8("a"), 1, 1, 1);
    builder.build();
    assertThrows(IllegalStateException.class, builder::build);
    assertThrows(IllegalStateException.class, () -> builder.add(utf8("b"), 1, 1, 1));
  }

  @Test
  void rejectsTinyCapacity() {
    assertThrows(IllegalArgumentException.class, () -> new BLinkTree(3));
    assertThrows(IllegalArgumentException.class, () -> BLinkTree.builder(2));
  }

  @Test
  void ascendingInsertsKeepNodesFull() {
    BLinkTree tree = new BLinkTree(64);
    int n = 10_000;
    for (int i = 0; i < n; i++) {
      tree.put(bigEndian(i), 1, i, 0);
    }
    TreeInvariants.check(tree, 64);
    // Halving would leave ~32 entries per leaf; the append policy keeps ~57.
    int leaves = TreeInvariants.leaves(tree).size();
    assertTrue(leaves <= n / 50, "leaves: " + leaves);
  }

  @Test
  void fixedLengthKeysAreStoredWithoutOffsets() {
    BLinkTree tree = new BLinkTree(8);
    for (int i = 0; i < 1_000; i++) {
      tree.put(bigEndian(i * 7 % 1_000), 1, i, 0);
    }
    assertTrue(TreeInvariants.leaves(tree).stream().allMatch(leaf -> leaf.keyEnds == null));
    byte[] shortKey = bytes(0, 0, 1);
    tree.put(shortKey, 1, -1, 0);
    assertEquals(1, TreeInvariants.leaves(tree).stream().filter(leaf -> leaf.keyEnds != null).count());
    assertEquals(-1, tree.floor(shortKey, 1).pointer());
    assertEquals(1_001, drain(tree.range(null, null)).size());
    TreeInvariants.check(tree, 8);
  }

  @Test
  void cursorAccessorsRequireAnEntry() {
    BLinkTree tree = new BLinkTree();
    tree.put(utf8("a"), 1, 1, 1);
    IndexCursor cursor = tree.range(null, null);
    assertThrows(IllegalStateException.class, cursor::key);
    assertTrue(cursor.next());
    assertEquals(1, cursor.pointer());
    assertFalse(cursor.next());
    assertThrows(IllegalStateException.class, cursor::timestamp);
    assertFalse(cursor.next());
  }

  @Test
  void cursorToleratesPutsWhileIterating() {
    BLinkTree tree = new BLinkTree(4);
    List<byte[]> original = new ArrayList<>();
    for (int i = 0; i < 2_000; i += 2) {
      tree.put(bigEndian(i), 1, i, 0);
      original.add(bigEndian(i));
    }
    IndexCursor cursor = tree.range(null, null);
    int seen = 0;
    byte[] previous = null;
    int step = 0;
    while (cursor.next()) {
      byte[] key = cursor.key();
      if (previous != null) {
        assertTrue(ReferenceIndex.compare(previous, 1, key, 1) < 0, "cursor went backwards");
      }
      if (original.stream().anyMatch(k -> Arrays.equals(k, key))) {
        seen++;
      }
      previous = key;
      // Insert both behind and ahead of the cursor (the odd keys), splitting the leaf being read.
      if (step < 1_000) {
        tree.put(bigEndian(step * 2 + 1), 1, 0, 0);
        tree.put(bigEndian(1_999 - step * 2), 1, 0, 0);
        step++;
      }
    }
    assertEquals(original.size(), seen, "every entry present before the cursor started was seen");
    TreeInvariants.check(tree, 4);
  }

  private static void assertOutOfOrder(byte[] firstKey, long firstTs, byte[] secondKey, long secondTs) {
    BLinkTree.Builder builder = BLinkTree.builder().add(firstKey, firstTs, 0, 0);
    assertThrows(IllegalArgumentException.class, () -> builder.add(secondKey, secondTs, 0, 0),
        () -> hex(firstKey) + "@" + firstTs + " then " + hex(secondKey) + "@" + secondTs);
  }

  private static byte[] bigEndian(int i) {
    return bytes(i >>> 24, i >>> 16, i >>> 8, i);
  }

  private static List<Long> timestamps(List<IndexEntry> entries) {
    return entries.stream().map(IndexEntry::timestamp).toList();
  }
}
