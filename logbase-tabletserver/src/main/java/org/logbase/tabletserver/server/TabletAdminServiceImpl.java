package org.logbase.tabletserver.server;

import io.grpc.stub.StreamObserver;
import org.logbase.common.InvalidRequestException;
import org.logbase.rpc.CloseTabletRequest;
import org.logbase.rpc.CloseTabletResponse;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.OpenTabletResponse;
import org.logbase.rpc.TabletAdminServiceGrpc;

/** The master's calls: open a tablet (recovering it from checkpoints and the log) or close one. */
final class TabletAdminServiceImpl extends TabletAdminServiceGrpc.TabletAdminServiceImplBase {
  private final ServedTablets tablets;

  TabletAdminServiceImpl(ServedTablets tablets) {
    this.tablets = tablets;
  }

  @Override
  public void openTablet(OpenTabletRequest req, StreamObserver<OpenTabletResponse> out) {
    Calls.unary(out, () -> {
      if (!req.hasTable() || !req.hasTablet()) {
        throw new InvalidRequestException("OpenTablet needs a table spec and a tablet spec");
      }
      tablets.open(req.getTable(), req.getTablet());
      return OpenTabletResponse.getDefaultInstance();
    });
  }

  @Override
  public void closeTablet(CloseTabletRequest req, StreamObserver<CloseTabletResponse> out) {
    Calls.unary(out, () -> {
      tablets.close(req.getTable(), req.getTabletId());
      return CloseTabletResponse.getDefaultInstance();
    });
  }
}
