package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.logbase.rpc.HeartbeatRequest;
import org.logbase.rpc.TabletLoad;
import org.logbase.rpc.TabletRef;

class ServerLoadsTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final ServerLoads loads = new ServerLoads(now::get);

  @Test
  void aTabletsRequestRateIsMeasuredBetweenTwoReportsAndStartsOverWhenItsCounterDoes() {
    loads.record(beat(1, 100, 5000));
    ServerLoads.TabletStats first = loads.latest("ts1").orElseThrow().tablets().get(new TabletName("t", 1));
    assertFalse(first.hasRate(), "one report: no rate yet");
    assertEquals(5000, first.versions());

    now.addAndGet(2_000_000_000L);
    loads.record(beat(1, 700, 6000));
    ServerLoads.TabletStats second = loads.latest("ts1").orElseThrow().tablets().get(new TabletName("t", 1));
    assertEquals(300.0, second.requestsPerSecond(), 1e-9);
    assertEquals(1_000_000_000L, second.rateSinceNanos());

    now.addAndGet(1_000_000_000L);
    loads.record(beat(1, 10, 6000)); // reopened: its count started over
    assertFalse(loads.latest("ts1").orElseThrow().tablets().get(new TabletName("t", 1)).hasRate());
  }

  private static HeartbeatRequest beat(int tablet, long requests, long versions) {
    return HeartbeatRequest.newBuilder().setServerId("ts1").setAddress("h:1")
        .addTabletLoads(TabletLoad.newBuilder().setTablet(TabletRef.newBuilder().setTable("t").setTabletId(tablet))
            .setRequests(requests).setVersions(versions))
        .build();
  }
}
