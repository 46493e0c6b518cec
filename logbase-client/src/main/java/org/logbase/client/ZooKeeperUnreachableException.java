package org.logbase.client;

import org.logbase.common.LogBaseException;

/**
 * A client never reached the ZooKeeper it was given (within {@code client.zookeeper.connect.timeout.ms}):
 * most likely the address is wrong or the cluster is not running. Not retried.
 */
public class ZooKeeperUnreachableException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public ZooKeeperUnreachableException(String message) {
    super(message);
  }
}
