package org.logbase.tpcw.schema;

import java.util.Arrays;
import java.util.List;

/** What the item index tables carry of an item: enough to show a search result without reading the item. */
public record ItemRef(long id, String title, String subject, long pubDate, String authorFirst, String authorLast) {
  /** The distinct words of the title, each indexed in {@link TpcwTable#ITEM_BY_TITLE}. */
  public List<String> titleWords() {
    return Arrays.stream(title.split(" ")).filter(w -> !w.isEmpty()).distinct().toList();
  }
}
