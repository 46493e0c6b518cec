package org.logbase.common.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.logbase.common.LogBaseException;

/**
 * A streaming call (a scan) open on a server that stops: the server's forced shutdown, after its
 * grace period, resets the stream, which the client sees as CANCELLED. That is the transport ending
 * the call, as a lost connection is, and retriable; a call the client cancelled itself is not.
 * Real sockets, grpc-netty on both sides.
 */
class ServerStopMidCallTest {
  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };
  private static final MethodDescriptor<byte[], byte[]> STREAM = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
      .setFullMethodName("test.Stop/Stream")
      .setRequestMarshaller(BYTES)
      .setResponseMarshaller(BYTES)
      .build();

  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws IOException {
    // Sends one message and leaves the stream open, as a scan whose client reads slowly.
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerServiceDefinition.builder("test.Stop")
            .addMethod(STREAM, ServerCalls.asyncServerStreamingCall((request, out) -> out.onNext(new byte[] {1})))
            .build())
        .build()
        .start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
  }

  @Test
  void aStreamTheStoppingServerResetsIsRetriable() throws InterruptedException {
    Iterator<byte[]> replies = ClientCalls.blockingServerStreamingCall(channel, STREAM, CallOptions.DEFAULT, new byte[0]);
    assertArrayEquals(new byte[] {1}, replies.next()); // the call is open on the server

    server.shutdown(); // as TabletServer.stop: no new calls; then, after the grace period, the rest
    assertFalse(server.awaitTermination(100, TimeUnit.MILLISECONDS), "the open stream holds the server");
    server.shutdownNow();

    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, replies::hasNext);
    assertEquals(Status.Code.CANCELLED, e.getStatus().getCode(), e.getStatus().toString());
    LogBaseException seen = RpcErrors.fromStatus(e, "scan of table 't'");
    assertTrue(RpcErrors.isRetriable(seen), seen.getMessage() + " / " + e.getStatus());
  }

  @Test
  void aCallTheClientCancelledItselfIsNotRetriable() {
    ClientCall<byte[], byte[]> call = channel.newCall(STREAM, CallOptions.DEFAULT);
    Iterator<byte[]> replies = ClientCalls.blockingServerStreamingCall(call, new byte[0]);
    assertArrayEquals(new byte[] {1}, replies.next());

    call.cancel("the scan was closed", null);

    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, replies::hasNext);
    assertEquals(Status.Code.CANCELLED, e.getStatus().getCode());
    assertFalse(RpcErrors.isRetriable(RpcErrors.fromStatus(e, "scan of table 't'")), e.getStatus().toString());
  }
}
