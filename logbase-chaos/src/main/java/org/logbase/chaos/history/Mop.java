package org.logbase.chaos.history;

import java.util.List;
import java.util.Objects;

/**
 * One step of a list-append transaction: append a value to a key's list, or read the whole list.
 *
 * @param list for a read, the list observed (empty if the key had none); null when the read's result
 *     is unknown (a transaction that did not finish)
 */
public record Mop(Type type, String key, long value, List<Long> list) {
  public enum Type { APPEND, READ }

  public Mop {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(key, "key");
    if (key.isEmpty() || key.chars().anyMatch(c -> c == ' ' || c == ':' || c == ',')) {
      throw new IllegalArgumentException("keys are non-empty and hold no space, ':' or ',': '" + key + "'");
    }
    list = list == null ? null : List.copyOf(list);
  }

  public static Mop append(String key, long value) {
    return new Mop(Type.APPEND, key, value, null);
  }

  public static Mop read(String key, List<Long> observed) {
    return new Mop(Type.READ, key, 0, observed);
  }

  public boolean isAppend() {
    return type == Type.APPEND;
  }

  @Override
  public String toString() {
    return type == Type.APPEND ? "append " + key + " " + value : "read " + key + " " + (list == null ? "?" : list);
  }
}
