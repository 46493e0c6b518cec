package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.logbase.common.InvalidRequestException;
import org.logbase.rpc.TabletSpec;

class TabletLayoutTest {
  @Test
  void noSplitKeysMakeOneUnboundedTablet() {
    assertEquals(List.of(TabletSpec.newBuilder().setTabletId(0).build()),
        TabletLayout.fromSplitKeys(List.of(), TableLimits.DEFAULT));
  }

  @Test
  void splitKeysBoundAdjacentTablets() {
    List<TabletSpec> tablets = TabletLayout.fromSplitKeys(List.of(key("b"), key("d")), TableLimits.DEFAULT);
    assertEquals(3, tablets.size());
    assertEquals(TabletSpec.newBuilder().setTabletId(0).setEndKey(key("b")).build(), tablets.get(0));
    assertEquals(TabletSpec.newBuilder().setTabletId(1).setStartKey(key("b")).setEndKey(key("d")).build(),
        tablets.get(1));
    assertEquals(TabletSpec.newBuilder().setTabletId(2).setStartKey(key("d")).build(), tablets.get(2));
  }

  @Test
  void badSplitKeysAreRefused() {
    TableLimits l = TableLimits.DEFAULT;
    assertThrows(InvalidRequestException.class, () -> TabletLayout.fromSplitKeys(List.of(key("b"), key("a")), l));
    assertThrows(InvalidRequestException.class, () -> TabletLayout.fromSplitKeys(List.of(key("a"), key("a")), l));
    assertThrows(InvalidRequestException.class, () -> TabletLayout.fromSplitKeys(List.of(ByteString.EMPTY), l));
    // Unsigned order: 0xff sorts after 0x01.
    assertThrows(InvalidRequestException.class, () -> TabletLayout.fromSplitKeys(
        List.of(ByteString.copyFrom(new byte[] {(byte) 0xff}), ByteString.copyFrom(new byte[] {0x01})),
        TableLimits.DEFAULT));
  }

  @Test
  void oversizedRequestsAreRefusedWithTheLimitNamed() {
    TableLimits small = new TableLimits(3, 100, 8);
    InvalidRequestException tooMany = assertThrows(InvalidRequestException.class,
        () -> TabletLayout.fromSplitKeys(List.of(key("a"), key("b"), key("c")), small));
    assertEquals("3 split keys would make 4 tablets; a table has at most 3 (master.table.max.tablets)",
        tooMany.getMessage());
    InvalidRequestException tooLong = assertThrows(InvalidRequestException.class,
        () -> TabletLayout.fromSplitKeys(List.of(key("a"), key("123456789")), small));
    assertEquals("split key 1 has 9 bytes; a key has at most 8 (tablet.key.max.bytes)", tooLong.getMessage());
    assertEquals(3, TabletLayout.fromSplitKeys(List.of(key("a"), key("b")), small).size());
  }

  @Test
  void theDefaultRefusesTwentyThousandSplitKeysBeforeLookingAtThem() {
    List<ByteString> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      keys.add(key(String.format("k%06d", i)));
    }
    assertThrows(InvalidRequestException.class, () -> TabletLayout.fromSplitKeys(keys, TableLimits.DEFAULT));
  }

  private static ByteString key(String s) {
    return ByteString.copyFromUtf8(s);
  }
}
