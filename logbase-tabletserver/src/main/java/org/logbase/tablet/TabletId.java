package org.logbase.tablet;

/** The ids a log record carries to name its tablet. */
public record TabletId(int tableId, int tabletId) {
  @Override
  public String toString() {
    return "t" + tableId + "-" + tabletId;
  }
}
