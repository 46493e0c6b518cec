package org.logbase.chaos.check;

/**
 * The anomalies the list-append checker reports, with Elle's names. All but write skew
 * ({@code G2-item}) are forbidden under snapshot isolation; the {@code -realtime} cycles close only
 * through a real-time edge, and are forbidden because this database claims strong snapshot isolation
 * (a transaction that begins after another was acknowledged sees it).
 */
public enum AnomalyType {
  INCOMPATIBLE_ORDER("incompatible-order", true),
  DUPLICATE_ELEMENTS("duplicate-elements", true),
  GARBAGE_READ("garbage-read", true),
  G1A("G1a", true),
  G1B("G1b", true),
  INTERNAL("internal", true),
  LOST_WRITE("lost-write", true),
  G0("G0", true),
  G1C("G1c", true),
  G_SINGLE("G-single", true),
  G_NONADJACENT("G-nonadjacent", true),
  G2_ITEM("G2-item", false),
  G0_REALTIME("G0-realtime", true),
  G1C_REALTIME("G1c-realtime", true),
  G_SINGLE_REALTIME("G-single-realtime", true),
  G_NONADJACENT_REALTIME("G-nonadjacent-realtime", true),
  G2_ITEM_REALTIME("G2-item-realtime", false);

  private final String label;
  private final boolean forbidden;

  AnomalyType(String label, boolean forbidden) {
    this.label = label;
    this.forbidden = forbidden;
  }

  /** Elle's name, e.g. {@code G-single-realtime}. */
  public String label() {
    return label;
  }

  /** Whether snapshot isolation (strong, for the realtime cycles) rules it out. */
  public boolean forbidden() {
    return forbidden;
  }

  /** Whether this is a dependency cycle. */
  public boolean isCycle() {
    return ordinal() >= G0.ordinal();
  }

  /** The cycle class that closes through a real-time edge. */
  AnomalyType realtime() {
    return isCycle() && this == base() ? valueOf(name() + "_REALTIME") : this;
  }

  /** For a realtime class, the same class without real-time edges; otherwise this. */
  AnomalyType base() {
    return name().endsWith("_REALTIME") ? valueOf(name().substring(0, name().length() - "_REALTIME".length())) : this;
  }

  @Override
  public String toString() {
    return label;
  }
}
