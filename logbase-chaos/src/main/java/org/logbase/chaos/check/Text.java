package org.logbase.chaos.check;

import java.util.List;
import org.logbase.chaos.history.Txn;

/** Short renderings for explanations: a final read of thousands of keys must not flood a report. */
final class Text {
  private static final int MAX_TXN_CHARS = 300;
  private static final int LIST_EDGE = 4;

  private Text() {}

  static String name(Txn t) {
    return "T" + t.id();
  }

  /** The transaction's toString(), cut short (without rendering the rest) when it is long. */
  static String txn(Txn t) {
    StringBuilder b = new StringBuilder("T" + t.id() + "(p" + t.process() + ", " + t.outcome() + ", [");
    for (int i = 0; i < t.mops().size(); i++) {
      if (b.length() > MAX_TXN_CHARS) {
        return b.append("... ").append(t.mops().size() - i).append(" more])").toString();
      }
      b.append(i == 0 ? "" : ", ").append(t.mops().get(i));
    }
    return b.append("])").toString();
  }

  static String list(List<Long> l) {
    if (l.size() <= 2 * LIST_EDGE + 1) {
      return l.toString();
    }
    String head = l.subList(0, LIST_EDGE).toString();
    String tail = l.subList(l.size() - LIST_EDGE, l.size()).toString();
    return head.substring(0, head.length() - 1) + ", ... (" + l.size() + " values) ..., " + tail.substring(1);
  }
}
