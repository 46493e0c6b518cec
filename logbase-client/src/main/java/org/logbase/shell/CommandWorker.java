package org.logbase.shell;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Runs the interactive shell's commands one at a time on a worker thread, so that Ctrl-C can cancel
 * the running one (by interrupting it) while the shell itself goes on. A command marks the parts
 * that must not be cut short, such as a commit, with {@link #uninterruptibly}.
 */
final class CommandWorker implements Cancellation, AutoCloseable {
  /** What a cancel request found. */
  enum CancelResult { NOTHING_RUNNING, CANCELLING, CANNOT_CANCEL }

  private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "shell-command");
    t.setDaemon(true);
    return t;
  });
  private Thread running; // the worker while a command runs; guarded by this
  private int uninterruptible; // depth of uninterruptibly() sections; guarded by this
  private boolean requested; // guarded by this

  /** Runs {@code command} on the worker and waits for it to end, however it ends. */
  <T> T run(Supplier<T> command) {
    Future<T> f = worker.submit(() -> {
      synchronized (this) {
        running = Thread.currentThread();
        requested = false;
      }
      try {
        return command.get();
      } finally {
        synchronized (this) {
          running = null;
          Thread.interrupted(); // a late cancel must not reach the next command
        }
      }
    });
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return f.get();
        } catch (InterruptedException e) {
          interrupted = true; // the command decides when it ends; wait for it
        } catch (ExecutionException e) {
          throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Asks the running command to stop: interrupts it unless it is in an uninterruptible section. */
  synchronized CancelResult cancel() {
    if (running == null) {
      return CancelResult.NOTHING_RUNNING;
    }
    requested = true;
    if (uninterruptible > 0) {
      return CancelResult.CANNOT_CANCEL;
    }
    running.interrupt();
    return CancelResult.CANCELLING;
  }

  @Override
  public synchronized boolean requested() {
    return requested && uninterruptible == 0;
  }

  @Override
  public <T> T uninterruptibly(Supplier<T> work) {
    synchronized (this) {
      if (requested && uninterruptible == 0) {
        Thread.interrupted();
        throw new ShellException("cancelled"); // before the section began: nothing of it ran
      }
      uninterruptible++;
    }
    try {
      return work.get();
    } finally {
      synchronized (this) {
        uninterruptible--;
        requested = false; // what was asked during the section was refused, not postponed
      }
    }
  }

  @Override
  public void close() {
    worker.shutdownNow();
  }
}
