package org.logbase.shell;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.logbase.client.fake.FakeCluster;

/**
 * Fake servers (one master, two tablet servers) for all tests of a class, and the shell run
 * against them: {@code @RegisterExtension static final}.
 */
final class FakeShellCluster implements BeforeAllCallback, AfterAllCallback {
  /** What one run of the shell printed, and its exit code. */
  record Result(int code, String out, String err) {
    List<String> lines() {
      return out.lines().toList();
    }
  }

  private FakeCluster cluster;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    cluster = FakeCluster.start(1, 2);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    cluster.close();
  }

  FakeCluster cluster() {
    return cluster;
  }

  /** Runs the shell with these arguments, connected to the fake cluster. */
  Result shell(String... args) {
    List<String> all = new ArrayList<>(List.of("--zookeeper", cluster.zkConnect()));
    all.addAll(List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LogBaseShell.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
