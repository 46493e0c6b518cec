package org.logbase.ycsb;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicLong;
import org.logbase.client.Durability;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.client.Table;
import org.logbase.client.TableDefinition;
import org.logbase.common.Cell;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.common.LogBaseException;
import org.logbase.common.Row;
import org.logbase.common.TableExistsException;
import org.logbase.common.TableNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding. YCSB fields map to columns of one column group. Properties:
 *
 * <ul>
 *   <li>{@code logbase.zookeeper} (default localhost:2181) — the cluster's ZooKeeper
 *   <li>{@code logbase.columngroup} (default {@code f}) — the column group holding the fields
 *   <li>{@code logbase.durability} (hflush or hsync, default hflush)
 *   <li>{@code logbase.createtable} (default true) — create the table if missing, with columns
 *       field0..field{fieldcount-1} and {@code logbase.tablets} tablets (default 6) split over
 *       YCSB's key space
 *   <li>any {@code client.*} or {@code rpc.*} setting of the client library, passed through (for
 *       example {@code client.write.coalesce=false})
 * </ul>
 *
 * <p>YCSB makes one instance per client thread; they share one {@link LogBaseClient}.
 */
public final class LogBaseYcsbClient extends DB {
  private static final Logger LOG = LoggerFactory.getLogger(LogBaseYcsbClient.class);
  private static final Object LOCK = new Object();
  /** Failed operations logged one by one; after that, one line per {@link #LOG_EVERY}. */
  private static final int LOG_FIRST = 10;
  private static final int LOG_EVERY = 10_000;
  private static final AtomicLong FAILURES = new AtomicLong();
  private static LogBaseClient shared;
  private static int users;
  private static volatile String setupFailure;

  private Durability durability;
  private String group;
  private final Map<String, Table> tables = new HashMap<>();

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    group = p.getProperty("logbase.columngroup", "f");
    durability = Durability.valueOf(p.getProperty("logbase.durability", "hflush").toUpperCase(Locale.ROOT));
    synchronized (LOCK) {
      if (shared == null) {
        shared = LogBaseClient.connect(clientConfig(p));
      }
      users++;
      if (setupFailure == null && Boolean.parseBoolean(p.getProperty("logbase.createtable", "true"))) {
        try {
          createTableIfMissing(p);
        } catch (LogBaseException e) {
          // Not a DBException: YCSB prints two stack traces per thread for one. Every operation
          // fails instead, and ExitStatusExporter reports this and exits 1.
          setupFailure = e.getMessage();
          LOG.error("cannot set up LogBase: {}", setupFailure);
        }
      }
    }
  }

  /** Why the binding could not be set up (creating the table failed), or null. */
  static String setupFailure() {
    return setupFailure;
  }

  /** The client's settings: the ZooKeeper address, and any client.* or rpc.* property passed through. */
  static Config clientConfig(Properties p) {
    Config c = Config.empty().with(ClusterConfig.ZK_CONNECT, p.getProperty("logbase.zookeeper", "localhost:2181"));
    for (String name : p.stringPropertyNames()) {
      if (name.startsWith("client.") || name.startsWith("rpc.")) {
        c = c.with(name, p.getProperty(name));
      }
    }
    return c;
  }

  private void createTableIfMissing(Properties p) {
    String table = p.getProperty("table", "usertable");
    try {
      shared.admin().describeTable(table);
      return;
    } catch (TableNotFoundException e) {
      LOG.info("creating table {}", table);
    }
    int fields = Integer.parseInt(p.getProperty("fieldcount", "10"));
    String prefix = p.getProperty("fieldnameprefix", "field");
    String[] columns = new String[fields];
    for (int i = 0; i < fields; i++) {
      columns[i] = prefix + i;
    }
    int tablets = Integer.parseInt(p.getProperty("logbase.tablets", "6"));
    try {
      shared.admin().createTable(TableDefinition.builder(table).columnGroup(group, columns).build(),
          YcsbKeys.splits(tablets));
    } catch (TableExistsException raced) {
      LOG.info("table {} was created by another client", table);
    }
  }

  private Table table(String name) {
    if (setupFailure != null) {
      throw new LogBaseException("not set up: " + setupFailure);
    }
    return tables.computeIfAbsent(name, shared::table);
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      Row r = table(table).get(bytes(key), fields, 0);
      if (r == null) {
        return Status.NOT_FOUND;
      }
      copy(r, result);
      return Status.OK;
    } catch (LogBaseException e) {
      return error("read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    ScanSpec.Builder spec = ScanSpec.builder().start(bytes(startkey)).limit(recordcount).batchRows(recordcount)
        .prefetchTablets(1);
    if (fields != null) {
      spec.columns(fields);
    }
    try (Scanner s = table(table).scan(spec.build())) {
      for (Row r : s) {
        HashMap<String, ByteIterator> row = new HashMap<>();
        copy(r, row);
        result.add(row);
      }
      return Status.OK;
    } catch (LogBaseException e) {
      return error("scan", startkey, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return write("update", table, key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return write("insert", table, key, values);
  }

  private Status write(String op, String table, String key, Map<String, ByteIterator> values) {
    Map<String, byte[]> columns = new LinkedHashMap<>();
    values.forEach((k, v) -> columns.put(k, v.toArray()));
    try {
      table(table).put(bytes(key), columns, durability);
      return Status.OK;
    } catch (LogBaseException e) {
      return error(op, key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      table(table).delete(bytes(key), durability);
      return Status.OK;
    } catch (LogBaseException e) {
      return error("delete", key, e);
    }
  }

  @Override
  public void cleanup() {
    synchronized (LOCK) {
      if (--users == 0 && shared != null) {
        shared.close();
        shared = null;
      }
    }
  }

  private static void copy(Row r, Map<String, ByteIterator> out) {
    for (Map.Entry<String, Cell> e : r.cells().entrySet()) {
      out.put(e.getKey(), new ByteArrayByteIterator(e.getValue().value()));
    }
  }

  private static Status error(String op, String key, LogBaseException e) {
    long n = FAILURES.incrementAndGet();
    if (n <= LOG_FIRST) {
      LOG.warn("{} of {} failed: {}", op, key, e.getMessage());
    } else if (n % LOG_EVERY == 0) {
      LOG.warn("{} operations failed so far; the latest: {} of {}: {}", n, op, key, e.getMessage());
    }
    return Status.ERROR;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
