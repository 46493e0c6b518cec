package org.logbase.chaos.history;

import java.util.ArrayList;
import java.util.List;

/**
 * One line per transaction, so that client processes can stream what they did to the runner and a
 * run's history can be saved and checked again:
 *
 * <pre>
 * T id process invokeNanos completeNanos OUTCOME mop mop ...
 * mop = a:key:value | r:key:v1,v2,... | r:key: (empty list) | r:key:? (result unknown)
 * </pre>
 */
public final class HistoryFormat {
  private HistoryFormat() {}

  public static String format(Txn t) {
    StringBuilder b = new StringBuilder("T ").append(t.id()).append(' ').append(t.process()).append(' ')
        .append(t.invokeNanos()).append(' ').append(t.completeNanos()).append(' ').append(t.outcome());
    for (Mop m : t.mops()) {
      b.append(' ');
      if (m.isAppend()) {
        b.append("a:").append(m.key()).append(':').append(m.value());
      } else {
        b.append("r:").append(m.key()).append(':');
        if (m.list() == null) {
          b.append('?');
        } else {
          for (int i = 0; i < m.list().size(); i++) {
            b.append(i == 0 ? "" : ",").append(m.list().get(i));
          }
        }
      }
    }
    return b.toString();
  }

  /** Whether a line is a transaction line (others in a stream are ignored). */
  public static boolean isTxn(String line) {
    return line.startsWith("T ");
  }

  public static Txn parse(String line) {
    String[] f = line.trim().split(" ");
    if (f.length < 6 || !f[0].equals("T")) {
      throw new IllegalArgumentException("not a transaction line: " + line);
    }
    List<Mop> mops = new ArrayList<>();
    for (int i = 6; i < f.length; i++) {
      String[] m = f[i].split(":", 3);
      if (m.length != 3) {
        throw new IllegalArgumentException("bad step '" + f[i] + "' in: " + line);
      }
      if (m[0].equals("a")) {
        mops.add(Mop.append(m[1], Long.parseLong(m[2])));
      } else if (m[0].equals("r")) {
        mops.add(Mop.read(m[1], parseList(m[2])));
      } else {
        throw new IllegalArgumentException("bad step '" + f[i] + "' in: " + line);
      }
    }
    return new Txn(Long.parseLong(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
        Outcome.valueOf(f[5]), mops);
  }

  private static List<Long> parseList(String s) {
    if (s.equals("?")) {
      return null;
    }
    List<Long> out = new ArrayList<>();
    if (!s.isEmpty()) {
      for (String v : s.split(",")) {
        out.add(Long.parseLong(v));
      }
    }
    return out;
  }
}
