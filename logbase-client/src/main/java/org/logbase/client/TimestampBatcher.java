package org.logbase.client;

import io.grpc.Deadline;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.logbase.common.ErrorCode;
import org.logbase.common.LogBaseException;

/**
 * Combines concurrent requests for timestamps into as few oracle calls as possible, without ever
 * handing out a timestamp fetched before the request for it was made.
 *
 * <p>At most one call is in flight. Requests that arrive meanwhile queue; when the call returns, the
 * request at the head of the queue becomes the sender and asks, in one call, for the timestamps of
 * every request queued by then (up to {@code maxPerCall}). A request is thus always served by a
 * call sent after it arrived, which is what makes its timestamps fresh: nothing is fetched ahead.
 * Senders are callers' own threads; the batcher has none of its own.
 */
final class TimestampBatcher {
  /** Fetches fresh timestamps: {@code count} consecutive ones, returning the first. */
  @FunctionalInterface
  interface Source {
    long fetch(int count, Deadline deadline);
  }

  /** One caller's request; its fields are guarded by the batcher's lock. */
  private static final class Request {
    final int count;
    final Deadline deadline;
    /** Signalled when the request is done or must send: only its own caller wakes, not every waiter. */
    final Condition wake;
    boolean mustSend;
    boolean done;
    long first;
    LogBaseException failure;

    Request(int count, Deadline deadline, Condition wake) {
      this.count = count;
      this.deadline = deadline;
      this.wake = wake;
    }
  }

  private final Source source;
  private final int maxPerCall;
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Request> queue = new ArrayDeque<>(); // guarded by lock
  private boolean sending; // guarded by lock

  TimestampBatcher(Source source, int maxPerCall) {
    this.source = source;
    this.maxPerCall = maxPerCall;
  }

  /**
   * Returns the first of {@code count} (at most {@code maxPerCall}) consecutive fresh timestamps.
   * The call that fetches them has at most the earliest deadline of the requests it serves.
   */
  long take(int count, Deadline deadline) {
    Request me = new Request(count, deadline, lock.newCondition());
    List<Request> batch;
    lock.lock();
    try {
      queue.add(me);
      if (sending) {
        // Uninterruptible: a request chosen as the next sender must send, or the queue would stall.
        while (!me.done && !me.mustSend) {
          me.wake.awaitUninterruptibly();
        }
        if (me.done) {
          return result(me);
        }
      }
      sending = true;
      batch = drain();
    } finally {
      lock.unlock();
    }
    // Preset for an Error thrown out of the call: the requests behind must still be released.
    LogBaseException failure = new LogBaseException("the timestamp request ended without an answer");
    long first = 0;
    try {
      first = source.fetch(total(batch), earliestDeadline(batch));
      failure = null;
    } catch (RuntimeException e) {
      failure = e instanceof LogBaseException l ? l : new LogBaseException(e.toString(), e);
    } finally {
      complete(batch, first, failure);
    }
    return result(me);
  }

  /** Requests waiting for the next call (for tests). */
  int queued() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /** Takes the requests for the next call from the head of the queue. */
  private List<Request> drain() {
    List<Request> batch = new ArrayList<>();
    int total = 0;
    while (!queue.isEmpty() && total + queue.peek().count <= maxPerCall) {
      Request r = queue.poll();
      total += r.count;
      batch.add(r);
    }
    return batch;
  }

  private static int total(List<Request> batch) {
    return batch.stream().mapToInt(r -> r.count).sum();
  }

  private static Deadline earliestDeadline(List<Request> batch) {
    Deadline d = batch.get(0).deadline;
    for (Request r : batch) {
      d = d.minimum(r.deadline);
    }
    return d;
  }

  /**
   * Gives each request of the batch its consecutive share of the timestamps from {@code first} (in
   * queue order) or the failure, and makes the head of the queue the next sender, or ends sending.
   */
  private void complete(List<Request> batch, long first, LogBaseException failure) {
    lock.lock();
    try {
      for (Request r : batch) {
        r.done = true;
        r.failure = failure;
        r.first = first;
        first += r.count;
        r.wake.signal();
      }
      Request next = queue.peek();
      if (next != null) {
        next.mustSend = true;
        next.wake.signal();
      } else {
        sending = false;
      }
    } finally {
      lock.unlock();
    }
  }

  private static long result(Request r) {
    if (r.failure != null) {
      // Each caller gets an exception of its own (callers add suppressed ones), of the same type.
      LogBaseException own = ErrorCode.of(r.failure).exception(r.failure.getMessage());
      own.initCause(r.failure);
      throw own;
    }
    return r.first;
  }
}
