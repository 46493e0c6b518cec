package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.logbase.common.InvalidRequestException;
import org.logbase.rpc.TabletSpec;

class TabletLayoutTest {
  @Test
  void noSplitKeysMakeOneUnboundedTablet() {
    assertEquals(List.of(TabletSpec.newBuilder().setTabletId(0).build()), TabletLayout.fromSplitKeys(List.of()));
  }

  @Test
  void splitKeysBoundAdjacentTablets() {
    List<TabletSpec> tablets = TabletLayout.fromSplitKeys(List.of(key("b"), key("d")));
    assertEquals(3, tablets.size());
    assertEquals(TabletSpec.newBuilder().setTabletId(0).setEndKey(key("b")).build(), tablets.get(0));
    assertEquals(TabletSpec.newBuilder().setTabletId(1).setStartKey(key("b")).setEndKey(key("d")).build(),
        tablets.get(1));
    assertEquals(TabletSpec.newBuilder().setTabletId(2).setStartKey(key("d")).build(), tablets.get(2));
  }

  @Test
  void badSplitKeysAreRefused() {
    assertThrows(InvalidRequestException.class, () -> TabletLayout.fromSplitKeys(List.of(key("b"), key("a"))));
    assertThrows(InvalidRequestException.class, () -> TabletLayout.fromSplitKeys(List.of(key("a"), key("a"))));
    assertThrows(InvalidRequestException.class, () -> TabletLayout.fromSplitKeys(List.of(ByteString.EMPTY)));
    // Unsigned order: 0xff sorts after 0x01.
    assertThrows(InvalidRequestException.class, () -> TabletLayout.fromSplitKeys(
        List.of(ByteString.copyFrom(new byte[] {(byte) 0xff}), ByteString.copyFrom(new byte[] {0x01}))));
  }

  private static ByteString key(String s) {
    return ByteString.copyFromUtf8(s);
  }
}
