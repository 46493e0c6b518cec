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
import org.logbase.tablet.Tablet;
import org.logbase.txn.TxnManager;

/**
 * The master's calls: open tablets (recovering them from checkpoints and the log, many in one pass)
 * or close one.
 */
final class TabletAdminServiceImpl extends TabletAdminServiceGrpc.TabletAdminServiceImplBase {
  private final ServedTablets tablets;
  private final TxnManager txns;
  private final Calls calls;
  private final long drainMs;
  private final MasterEpochFence epochs = new MasterEpochFence();

  /** @param drainMs how long a close waits for the tablet's writes and transactions in progress */
  TabletAdminServiceImpl(ServedTablets tablets, TxnManager txns, Calls calls, long drainMs) {
    this.tablets = tablets;
    this.txns = txns;
    this.calls = calls;
    this.drainMs = drainMs;
  }

  @Override
  public void openTablet(OpenTabletRequest req, StreamObserver<OpenTabletResponse> out) {
    calls.async(out, () -> tablets.open(List.of(req)).thenApply(v -> OpenTabletResponse.getDefaultInstance()));
  }

  @Override
  public void openTablets(OpenTabletsRequest req, StreamObserver<OpenTabletsResponse> out) {
    calls.async(out, () -> {
      epochs.admit(req.getMasterEpoch(), "opening " + req.getTabletsCount() + " tablets");
      return tablets.open(req.getTabletsList()).thenApply(v -> OpenTabletsResponse.getDefaultInstance());
    });
  }

  @Override
  public void closeTablet(CloseTabletRequest req, StreamObserver<CloseTabletResponse> out) {
    calls.unary(out, () -> {
      epochs.admit(req.getMasterEpoch(), "closing tablet " + req.getTabletId() + " of " + req.getTable());
      Tablet t = tablets.findServed(req.getTable(), req.getTabletId());
      if (t == null) {
        return CloseTabletResponse.getDefaultInstance();
      }
      // No write appends for it after the close's checkpoint: the next server replays from there.
      txns.closeForWrites(t, "it is being closed (moved, split or dropped)", drainMs);
      tablets.close(req.getTable(), req.getTabletId());
      return CloseTabletResponse.getDefaultInstance();
    });
  }
}
