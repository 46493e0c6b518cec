package org.logbase.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.grpc.StatusRuntimeException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.logbase.common.LogBaseException;
import org.logbase.common.LogUnavailableException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.ServerBusyException;
import org.logbase.common.ServerStoppingException;
import org.logbase.common.StorageUnavailableException;
import org.logbase.common.TableNotFoundException;
import org.logbase.common.rpc.RpcErrors;

/** Which failures make a request look its route up again. */
class RpcsTest {

  @Test
  void aBusyServerKeepsItsRouteAWrongOneIsForgottenAndAFinalErrorLeavesItAlone() {
    assertEquals(0, forgetsAfter(new ServerBusyException("busy")), "the busy server serves the tablet");
    assertEquals(1, forgetsAfter(new NotServingTabletException("moved")));
    assertEquals(0, forgetsAfter(new TableNotFoundException("t")));
  }

  @Test
  void aServerWhoseLogOrFileSystemFailsForTheMomentKeepsItsRoute() {
    assertEquals(0, forgetsAfter(new LogUnavailableException("log retrying a batch")));
    assertEquals(0, forgetsAfter(new StorageUnavailableException("NameNode refused the connection")));
    assertEquals(1, forgetsAfter(new ServerStoppingException("stopping")), "its tablets move elsewhere");
  }

  @Test
  void aBusyServersRefusalArrivesTypedAndRetriable() {
    LogBaseException e = RpcErrors.fromStatus(RpcErrors.toStatus(new ServerBusyException("busy")), "scan");
    assertInstanceOf(ServerBusyException.class, e);
    assertEquals(true, RpcErrors.isRetriable(e));
  }

  private static int forgetsAfter(LogBaseException onServer) {
    StatusRuntimeException wire = RpcErrors.toStatus(onServer);
    AtomicInteger forgets = new AtomicInteger();
    Rpcs.failure(wire, "call", forgets::incrementAndGet);
    return forgets.get();
  }
}
