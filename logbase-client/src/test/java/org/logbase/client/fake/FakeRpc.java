package org.logbase.client.fake;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.logbase.common.rpc.RpcErrors;

/** Serving a fake over a real localhost socket, and answering calls as the real servers do. */
final class FakeRpc {
  private FakeRpc() {}

  static Server serve(BindableService service) {
    try {
      return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service).build().start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String address(Server server) {
    return "127.0.0.1:" + server.getPort();
  }

  static void stop(Server server) {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Answers a unary call with {@code body}'s result, or with the status of its typed exception. */
  static <T> void respond(StreamObserver<T> observer, Supplier<T> body) {
    T response;
    try {
      response = body.get();
    } catch (RuntimeException e) {
      observer.onError(RpcErrors.toStatus(e));
      return;
    }
    observer.onNext(response);
    observer.onCompleted();
  }
}
