package org.logbase.tabletserver.server;

import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.logbase.common.Threads;
import org.logbase.compaction.CompactionReport;
import org.logbase.rpc.CloseTabletRequest;
import org.logbase.rpc.CloseTabletResponse;
import org.logbase.rpc.CompactTabletRequest;
import org.logbase.rpc.CompactTabletResponse;
import org.logbase.rpc.CompactionStats;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.OpenTabletResponse;
import org.logbase.rpc.OpenTabletsRequest;
import org.logbase.rpc.OpenTabletsResponse;
import org.logbase.rpc.SplitTabletRequest;
import org.logbase.rpc.SplitTabletResponse;
import org.logbase.rpc.TabletAdminServiceGrpc;
import org.logbase.rpc.TabletRef;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.txn.TxnManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's calls: open tablets (recovering them from checkpoints and the log, many in one pass),
 * close, split or compact one.
 */
final class TabletAdminServiceImpl extends TabletAdminServiceGrpc.TabletAdminServiceImplBase {
  private final ServedTablets tablets;
  private final TxnManager txns;
  private final Calls calls;
  private final long drainMs;
  private final TabletCompactor compactor;
  private final TabletCloser closer;
  private static final Logger LOG = LoggerFactory.getLogger(TabletAdminServiceImpl.class);
  private final MasterEpochFence epochs;
  /** Splits wait for writes to drain: not on a gRPC thread, nor on the tablet opener's. */
  private final ExecutorService splitter = Executors.newSingleThreadExecutor(Threads.daemon("tablet-splitter"));

  /** @param drainMs how long a close waits for the tablet's writes and transactions in progress */
  TabletAdminServiceImpl(ServedTablets tablets, TxnManager txns, Calls calls, long drainMs, TabletCompactor compactor,
      TabletCloser closer, MasterEpochFence epochs) {
    this.epochs = epochs;
    this.compactor = compactor;
    this.closer = closer;
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
      return tablets.open(req.getTabletsList()).thenApply(leftOut -> OpenTabletsResponse.newBuilder()
          .addAllLeftOut(leftOut.stream().map(d -> TabletRef.newBuilder().setTable(d.schema().name())
              .setTableId(d.schema().id()).setTabletId(d.tabletId()).build()).toList()).build());
    });
  }

  @Override
  public void closeTablet(CloseTabletRequest req, StreamObserver<CloseTabletResponse> out) {
    calls.unary(out, () -> {
      epochs.admit(req.getMasterEpoch(), "closing tablet " + req.getTabletId() + " of " + req.getTable());
      // An open of this assignment arriving from now on is stale, whatever happens in the close.
      long servedMs = closer.close(req.getTable(), req.getTableId(), req.getTabletId(), req.getAssignment(),
          req.getDropped());
      return CloseTabletResponse.newBuilder().setServedMs(servedMs).build();
    });
  }

  /**
   * Splits a tablet by its manifests: its writes are stopped and drained, it is closed with a
   * checkpoint and the daughters' manifests written; the master then assigns and opens the
   * daughters. A tablet this server was given with its split pending (its last server died
   * mid-split) is opened first, unless its manifest shows the split done already; asked again after
   * the split, the answer is the same key.
   */
  @Override
  public void splitTablet(SplitTabletRequest req, StreamObserver<SplitTabletResponse> out) {
    calls.async(out, () -> {
      epochs.admit(req.getMasterEpoch(), "splitting tablet " + req.getTablet().getTabletId() + " of "
          + req.getTable().getName());
      TabletDescriptor d = ServedTablets.descriptor(req.getTable(), req.getTablet());
      CompletableFuture<?> served;
      try {
        served = tablets.findServed(d.schema().name(), d.tabletId()) != null || tablets.isSplit(d)
            ? CompletableFuture.completedFuture(null)
            : tablets.open(List.of(OpenTabletRequest.newBuilder().setTable(req.getTable()).setTablet(req.getTablet())
                .build()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      // An open that fails because a split of this tablet finished meanwhile (a master asking again
      // while the first request was between the close and the retirement) is no failure: the split
      // below then answers the key it was done at.
      return served.handle((v, openFailure) -> openFailure).thenApplyAsync(openFailure -> {
        try {
          if (openFailure != null && !tablets.isSplit(d)) {
            throw openFailure instanceof CompletionException c ? c : new CompletionException(openFailure);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return SplitTabletResponse.newBuilder().setSplitKey(ByteString.copyFrom(split(d, req))).build();
      }, splitter);
    });
  }

  /** Compacts a served tablet now, after the compactions asked for before it (one at a time). */
  @Override
  public void compactTablet(CompactTabletRequest req, StreamObserver<CompactTabletResponse> out) {
    calls.async(out, () -> {
      epochs.admit(req.getMasterEpoch(), "compacting tablet " + req.getTabletId() + " of " + req.getTable());
      tablets.checkServing();
      return compactor.compact(req.getTable(), req.getTabletId())
          .thenApply(r -> CompactTabletResponse.newBuilder().setStats(stats(r)).build());
    });
  }

  private static CompactionStats stats(CompactionReport r) {
    return CompactionStats.newBuilder().setBytesIn(r.bytesIn()).setBytesOut(r.bytesOut()).setVersionsIn(r.versionsIn())
        .setVersionsOut(r.versionsOut()).setVersionsDropped(r.versionsDropped()).setSegments(r.segments())
        .setHorizon(r.horizon()).setMillis(r.millis()).build();
  }

  private byte[] split(TabletDescriptor d, SplitTabletRequest req) {
    // Checked again now that an open may have run: a master that became active meanwhile has the say.
    epochs.admit(req.getMasterEpoch(), "splitting tablet " + d.tabletId() + " of " + d.schema().name());
    byte[] key = req.getSplitKey().isEmpty() ? null : req.getSplitKey().toByteArray();
    Tablet t = tablets.findServed(d.schema().name(), d.tabletId());
    if (t != null) {
      key = tablets.splitKey(d, key); // a bad key or nothing to split: refused before writes stop
      try {
        tablets.checkpointBeforeClose(t);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      txns.closeForWrites(t, "it is being split", drainMs);
    }
    try {
      return tablets.split(d, key, req.getLeftId(), req.getRightId());
    } catch (IOException | RuntimeException e) {
      // Failed before it closed the tablet: it goes on serving. Served now perhaps as another Tablet
      // (an alter or a compaction replaces it in place), but one with the same gate; a tablet opened
      // anew since has a gate of its own.
      Tablet now = tablets.findServed(d.schema().name(), d.tabletId());
      if (t != null && now != null && now.gate() == t.gate()) {
        now.gate().reopen();
      }
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }
}
