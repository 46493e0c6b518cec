package org.logbase.master;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** One real ZooKeeper server for all tests of a class: {@code @RegisterExtension static final}. */
final class ZooKeeperExtension implements BeforeAllCallback, AfterAllCallback {
  private TestingServer server;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    server = new TestingServer(true);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    server.close();
  }

  TestingServer server() {
    return server;
  }
}
