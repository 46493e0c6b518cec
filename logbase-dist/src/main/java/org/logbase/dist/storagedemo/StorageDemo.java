package org.logbase.dist.storagedemo;

import org.logbase.common.Row;
import static org.logbase.common.Bytes.utf8;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.logbase.common.Bytes;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.TableSchema;
import org.logbase.log.Durability;
import org.logbase.log.LogFileSystems;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.Version;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/logbase demo}: shows the storage engine working end to end. Writes, reads (newest, as
 * of a timestamp, projected), deletes and scans in this process; then starts a writer process that
 * kills itself with {@code kill -9} in the middle of writing, recovers its log and checks every
 * write it acknowledged.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Write, read, scan, crash with kill -9 mid-write, recover, and check what survived.")
public final class StorageDemo implements java.util.concurrent.Callable<Integer> {
  /** The hand-written rows of step 1; the crash writer fills {@link CheckedValues#USERS}. */
  static final TableSchema PEOPLE = new TableSchema("people", 2, List.of(
      new ColumnGroup(0, "profile", List.of("name", "email")),
      new ColumnGroup(1, "stats", List.of("visits", "score"))));

  @Parameters(index = "0", arity = "0..1", paramLabel = "ROOT",
      description = "Where the server's files go: a file:// or hdfs:// URI or a local path, new or empty, or an"
          + " earlier storage demo's (default: ./run/storage-demo). Any other directory is refused, never deleted.")
  String root = "run/storage-demo";

  @Option(names = "--writers", description = "Writer threads in the process that gets killed (default: ${DEFAULT-VALUE}).")
  int writers = 8;

  @Option(names = "--acks", description = "Acknowledged writes after which that process kills itself (default: ${DEFAULT-VALUE}).")
  int acks = 5000;

  @Option(names = "--keep", description = "Keep the data of an earlier storage demo run instead of starting empty.")
  boolean keep;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Settings file (default: conf/logbase.properties when it exists).")
  java.nio.file.Path configFile = java.nio.file.Path.of("conf/logbase.properties");

  private final PrintStream out = System.out;

  public static void main(String[] args) {
    System.exit(new CommandLine(new StorageDemo()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    URI uri = root.contains("://") ? URI.create(root) : new File(root).getAbsoluteFile().toURI();
    Configuration hadoop = new Configuration();
    try (FileSystem fs = LogFileSystems.open(uri, hadoop)) {
      if (keep) {
        DemoRoot.prepareKept(fs, uri);
      } else {
        DemoRoot.prepareEmpty(fs, uri);
      }
    } catch (IllegalStateException e) {
      System.err.println("storage demo: " + e.getMessage());
      return 2;
    }
    TabletDescriptor users = new TabletDescriptor(CheckedValues.USERS, 0, null, null);
    TabletDescriptor people = new TabletDescriptor(PEOPLE, 0, null, null);
    Config config = java.nio.file.Files.exists(configFile) ? Config.load(configFile) : Config.empty();
    EngineOptions options = EngineOptions.of(uri, config, List.of(people, users)).withHadoop(hadoop);
    out.println("LogBase storage demo, data in " + uri);

    out.println("\n== 1. Write, read, delete and scan");
    try (StorageEngine engine = StorageEngine.open(options); TxnManager txns = TxnManager.standalone(engine)) {
      readsAndWrites(txns, engine.tablet(people.id()));
      out.println("checkpoint: " + engine.checkpoint().size() + " tablets");
    }

    out.println("\n== 2. A writer process with " + writers + " threads kills itself (kill -9) after " + acks
        + " acknowledged writes");
    List<Ack> acked = runSelfKillingWriter(uri);
    out.println("writer process died; " + acked.size() + " acknowledgements were recorded outside it");

    out.println("\n== 3. Recover and check");
    long t0 = System.nanoTime();
    try (StorageEngine engine = StorageEngine.open(options)) {
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      out.println("recovered in " + ms + " ms: " + engine.recoveryReport());
      Tablet t = engine.tablet(users.id());
      AckVerifier.Result r = AckVerifier.verify(t, acked);
      out.println("check: " + r);
      Row alice = engine.tablet(people.id()).get(utf8("alice"), null, HybridTimestamp.LATEST);
      out.println("alice is still " + show(alice));
      if (!r.ok()) {
        r.problems().forEach(p -> out.println("PROBLEM " + p));
        out.println("\nDEMO FAILED");
        return 1;
      }
    }
    out.println("\nDEMO OK: every acknowledged write survived kill -9, byte for byte; nothing half-written is visible.");
    return 0;
  }

  private void readsAndWrites(TxnManager txns, Tablet t) throws Exception {
    long t1 = txns.put(t, utf8("alice"), Map.of("name", utf8("Alice"), "email", utf8("alice@example.org"),
        "visits", utf8("1")), Durability.HFLUSH);
    out.println("put alice (2 column groups, one atomic write) at " + HybridTimestamp.toString(t1));
    txns.put(t, utf8("bob"), Map.of("name", utf8("Bob"), "score", utf8("7")), Durability.HSYNC);
    txns.put(t, utf8("carol"), Map.of("name", utf8("Carol")), Durability.HFLUSH);
    out.println("put bob (hsync) and carol");
    long t2 = txns.put(t, utf8("alice"), Map.of("email", utf8("alice@new.example")), Durability.HFLUSH);
    out.println("put alice email only at " + HybridTimestamp.toString(t2) + " (a partial version)");
    out.println("get alice           -> " + show(t.get(utf8("alice"), null, HybridTimestamp.LATEST)));
    out.println("get alice as of t1  -> " + show(t.get(utf8("alice"), null, t1)));
    out.println("get alice [email]   -> " + show(t.get(utf8("alice"), List.of("email"), HybridTimestamp.LATEST)));
    long t3 = txns.delete(t, utf8("bob"), Durability.HFLUSH);
    out.println("delete bob          -> get bob: " + show(t.get(utf8("bob"), null, HybridTimestamp.LATEST))
        + "; as of before the delete: " + show(t.get(utf8("bob"), null, t3 - 1)));
    out.println("scan all:");
    for (Row r : t.scan(null, null, null, HybridTimestamp.LATEST, 0)) {
      out.println("  " + Bytes.toStringBinary(r.key()) + " " + show(r));
    }
    out.println("versions of alice/profile:");
    for (Version v : t.versions(utf8("alice"), "profile", HybridTimestamp.LATEST, 0)) {
      StringBuilder cols = new StringBuilder();
      v.columns().forEach((c, val) -> cols.append(c).append('=').append(utf8(val)).append(' '));
      out.println("  " + HybridTimestamp.toString(v.timestamp()) + " " + (v.tombstone() ? "TOMBSTONE" : cols.toString().trim()));
    }
  }

  private List<Ack> runSelfKillingWriter(URI uri) throws Exception {
    List<String> cmd = List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx512m",
        "-Dlogbase.root.logger=WARN,console",
        "-Dlog4j.configuration=" + System.getProperty("log4j.configuration", "log4j.properties"),
        "-cp", System.getProperty("java.class.path"),
        CrashWriter.class.getName(), uri.toString(), Integer.toString(writers), CrashWriter.SELF_KILL,
        Integer.toString(acks), "checkpoint.updates=4000", "log.segment.bytes=4m");
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<Ack> acked = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        Ack a = Ack.parse(line);
        if (a != null) {
          acked.add(a);
        } else if (line.startsWith("RECOVERED")) {
          out.println("writer process started; " + line.toLowerCase(java.util.Locale.ROOT).substring(10, Math.min(line.length(), 120)) + "...");
        }
      }
    }
    int exit = p.waitFor();
    out.println("writer process exit status " + exit + (exit == 137 ? " (killed by SIGKILL)" : ""));
    return acked;
  }

  private static String show(Row r) {
    if (r == null) {
      return "(no row)";
    }
    StringBuilder sb = new StringBuilder("{");
    r.cells().forEach((c, cell) -> sb.append(sb.length() > 1 ? ", " : "").append(c).append('=').append(utf8(cell.value())));
    return sb.append('}').toString();
  }
}
