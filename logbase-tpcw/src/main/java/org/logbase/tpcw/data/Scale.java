package org.logbase.tpcw.data;

import java.util.List;

/**
 * The size of a TPC-W database, from its two scale factors as the specification (1.8) defines them:
 * the number of items and the number of emulated browsers. Customers are 2,880 per browser,
 * addresses two per customer, authors a quarter of the items, orders 0.9 per customer, 92 countries.
 */
public record Scale(int items, int browsers) {
  public static final List<Integer> ITEM_COUNTS = List.of(1_000, 10_000, 100_000);
  public static final int MAX_BROWSERS = 1_000;
  public static final int COUNTRIES = 92;

  public Scale {
    if (!ITEM_COUNTS.contains(items)) {
      throw new IllegalArgumentException("items must be one of TPC-W's scales 1000, 10000 or 100000, got " + items);
    }
    if (browsers < 1 || browsers > MAX_BROWSERS) {
      throw new IllegalArgumentException("browsers must be from 1 to " + MAX_BROWSERS + ", got " + browsers);
    }
  }

  public int authors() {
    return items / 4;
  }

  public int customers() {
    return 2_880 * browsers;
  }

  public int addresses() {
    return 2 * customers();
  }

  public int orders() {
    return customers() * 9 / 10;
  }

  /** Last names of authors are this many syllables long (searches by author pick one of 10^n names). */
  public static final int AUTHOR_NAME_DIGITS = 3;

  /** Title words are this many syllables long (searches by title pick one of 10^n words). */
  public static final int TITLE_WORD_DIGITS = 2;
}
