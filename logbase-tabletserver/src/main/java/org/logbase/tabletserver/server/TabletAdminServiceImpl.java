package org.logbase.tabletserver.server;

import io.grpc.stub.StreamObserver;
import java.util.List;
import org.logbase.rpc.CloseTabletRequest;
import org.logbase.rpc.CloseTabletResponse;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.OpenTabletResponse;
import org.logbase.rpc.OpenTabletsRequest;
import org.logbase.rpc.OpenTabletsResponse;
import org.logbase.rpc.TabletAdminServiceGrpc;

/**
 * The master's calls: open tablets (recovering them from checkpoints and the log, many in one pass)
 * or close one.
 */
final class TabletAdminServiceImpl extends TabletAdminServiceGrpc.TabletAdminServiceImplBase {
  private final ServedTablets tablets;
  private final Calls calls;

  TabletAdminServiceImpl(ServedTablets tablets, Calls calls) {
    this.tablets = tablets;
    this.calls = calls;
  }

  @Override
  public void openTablet(OpenTabletRequest req, StreamObserver<OpenTabletResponse> out) {
    calls.async(out, () -> tablets.open(List.of(req)).thenApply(v -> OpenTabletResponse.getDefaultInstance()));
  }

  @Override
  public void openTablets(OpenTabletsRequest req, StreamObserver<OpenTabletsResponse> out) {
    calls.async(out, () -> tablets.open(req.getTabletsList()).thenApply(v -> OpenTabletsResponse.getDefaultInstance()));
  }

  @Override
  public void closeTablet(CloseTabletRequest req, StreamObserver<CloseTabletResponse> out) {
    calls.unary(out, () -> {
      tablets.close(req.getTable(), req.getTabletId());
      return CloseTabletResponse.getDefaultInstance();
    });
  }
}
