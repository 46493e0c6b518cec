package org.logbase.tpcw.schema;

import java.util.List;

/**
 * The fixed word lists of TPC-W's population: the 24 subjects, the bindings, and the ten syllables
 * from which generated names are spelt (a number's digits, one syllable each). Index keys start
 * with these words, so the tables' split keys are chosen from them.
 */
public final class Vocabulary {
  /** Syllables for the digits 0-9. */
  public static final List<String> SYLLABLES = List.of("BA", "OG", "AL", "RI", "RE", "SE", "AT", "UL", "IN", "NG");

  public static final List<String> SUBJECTS = List.of("ARTS", "BIOGRAPHIES", "BUSINESS", "CHILDREN", "COMPUTERS",
      "COOKING", "HEALTH", "HISTORY", "HOME", "HUMOR", "LITERATURE", "MYSTERY", "NON-FICTION", "PARENTING",
      "POLITICS", "REFERENCE", "RELIGION", "ROMANCE", "SELF-HELP", "SCIENCE-NATURE", "SCIENCE-FICTION", "SPORTS",
      "YOUTH", "TRAVEL");

  public static final List<String> BACKINGS = List.of("HARDBACK", "PAPERBACK", "USED", "AUDIO", "LIMITED-EDITION");

  public static final List<String> SHIP_TYPES = List.of("AIR", "UPS", "FEDEX", "SHIP", "COURIER", "MAIL");

  public static final List<String> ORDER_STATUS = List.of("PROCESSING", "SHIPPED", "PENDING", "DENIED");

  /** The status of the orders of the paper's reduced workload: one row, no lines, no card transaction. */
  public static final String PAPER_ORDER = "PAPER";

  public static final List<String> CARD_TYPES = List.of("VISA", "MASTERCARD", "DISCOVER", "AMEX", "DINERS");

  private Vocabulary() {}

  /** A number spelt in syllables, one per digit, padded with leading zeros to at least {@code digits} digits. */
  public static String digSyl(long n, int digits) {
    String d = Long.toString(n);
    StringBuilder out = new StringBuilder();
    for (int i = d.length(); i < digits; i++) {
      out.append(SYLLABLES.get(0));
    }
    for (char c : d.toCharArray()) {
      out.append(SYLLABLES.get(c - '0'));
    }
    return out.toString();
  }
}
