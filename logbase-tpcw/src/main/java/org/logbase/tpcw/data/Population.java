package org.logbase.tpcw.data;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.logbase.tpcw.schema.IndexRows;
import org.logbase.tpcw.schema.ItemRef;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;
import org.logbase.tpcw.schema.Vocabulary;

/**
 * Generates the initial database as TPC-W's population rules describe it, one entity at a time
 * (an author, an item, a customer, an address, a country, an order with its lines and card
 * transaction), each from a random source seeded by its id: a parallel load writes the same
 * database as a sequential one. Item and author facts that other rows repeat (titles, subjects,
 * names, prices) are drawn once, up front.
 */
public final class Population {
  private static final int AUTHOR = 1;
  private static final int ITEM = 2;
  private static final int CUSTOMER = 3;
  private static final int ADDRESS = 4;
  private static final int COUNTRY = 5;
  private static final int ORDER = 6;
  private static final long DAY_MS = 86_400_000L;

  private final Scale scale;
  private final long seed;
  private final long nowMs;
  private final String[] authorFirst;
  private final String[] authorLast;
  private final ItemRef[] items;
  private final int[] itemAuthor;
  private final long[] cost;
  private final long[] srp;

  public Population(Scale scale, long seed, long nowMs) {
    this.scale = scale;
    this.seed = seed;
    this.nowMs = nowMs;
    authorFirst = new String[scale.authors() + 1];
    authorLast = new String[scale.authors() + 1];
    for (int a = 1; a <= scale.authors(); a++) {
      TpcwRandom r = TpcwRandom.of(seed, AUTHOR, a);
      authorFirst[a] = r.aString(3, 20);
      authorLast[a] = authorName(r);
    }
    items = new ItemRef[scale.items() + 1];
    itemAuthor = new int[scale.items() + 1];
    cost = new long[scale.items() + 1];
    srp = new long[scale.items() + 1];
    long today = nowMs / DAY_MS;
    for (int i = 1; i <= scale.items(); i++) {
      TpcwRandom r = TpcwRandom.of(seed, ITEM, i);
      int author = i <= scale.authors() ? i : r.between(1, scale.authors());
      itemAuthor[i] = author;
      String title = title(r);
      String subject = r.pick(Vocabulary.SUBJECTS);
      long pubDate = today - r.between(1, 365 * 90);
      srp[i] = r.between(100, 999_999);
      cost[i] = srp[i] * r.between(50, 100) / 100;
      items[i] = new ItemRef(i, title, subject, pubDate, authorFirst[author], authorLast[author]);
    }
  }

  public Scale scale() {
    return scale;
  }

  /** A title: three words of syllables. */
  public static String title(TpcwRandom r) {
    List<String> words = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      words.add(titleWord(r));
    }
    return String.join(" ", words);
  }

  /** A word of titles, as searches by title draw them. */
  public static String titleWord(TpcwRandom r) {
    return Vocabulary.digSyl(r.between(0, 99), Scale.TITLE_WORD_DIGITS);
  }

  /** An author's last name, as searches by author draw them. */
  public static String authorName(TpcwRandom r) {
    return Vocabulary.digSyl(r.between(0, 999), Scale.AUTHOR_NAME_DIGITS);
  }

  /** A customer's user name (its id in syllables); the password is the name in lower case. */
  public static String userName(long customerId) {
    return Vocabulary.digSyl(customerId, 0);
  }

  public static String password(String uname) {
    return uname.toLowerCase();
  }

  public ItemRef item(int id) {
    return items[id];
  }

  public void author(int a, RowSink out) {
    TpcwRandom r = TpcwRandom.of(seed, AUTHOR, a);
    r.aString(3, 20);
    authorName(r); // the facts drawn up front, then the rest
    out.add(TpcwTable.AUTHOR, Keys.id(a), Values.of("a_fname", authorFirst[a], "a_lname", authorLast[a],
        "a_mname", r.aString(1, 20), "a_dob", nowMs / DAY_MS - r.between(365 * 20, 365 * 100),
        "a_bio", r.aString(125, 500)));
  }

  public void item(int i, RowSink out) {
    ItemRef ref = items[i];
    TpcwRandom r = TpcwRandom.of(seed, ITEM + 100, i);
    long stock = r.between(10, 30);
    Set<Long> related = new LinkedHashSet<>();
    while (related.size() < 5) {
      long other = r.between(1, scale.items());
      if (other != i) {
        related.add(other);
      }
    }
    out.add(TpcwTable.ITEM, Keys.id(i), Values.of(
        "i_title", ref.title(), "i_a_id", itemAuthor[i], "i_subject", ref.subject(), "i_pub_date", ref.pubDate(),
        "i_srp", srp[i], "i_cost", cost[i], "i_thumbnail", "img" + i % 100 + "/thumb_" + i + ".gif",
        "i_related", join(related),
        "i_stock", stock, "i_sold", 0, "i_restocks", 0,
        "i_desc", r.aString(100, 500), "i_image", "img" + i % 100 + "/image_" + i + ".gif",
        "i_publisher", r.aString(14, 60), "i_isbn", r.aString(13, 13), "i_page", r.between(20, 9_999),
        "i_backing", r.pick(Vocabulary.BACKINGS),
        "i_dimensions", r.between(1, 99) + "x" + r.between(1, 99) + "x" + r.between(1, 99),
        "i_avail", ref.pubDate() + r.between(1, 30), "i_stock0", stock));
    out.addAll(IndexRows.forItem(ref));
  }

  public void country(int c, RowSink out) {
    TpcwRandom r = TpcwRandom.of(seed, COUNTRY, c);
    out.add(TpcwTable.COUNTRY, Keys.id(c), Values.of("co_name", "Country " + Vocabulary.digSyl(c, 2),
        "co_exchange", r.between(1, 100_000), "co_currency", r.aString(3, 3).toUpperCase()));
  }

  public void address(long a, RowSink out) {
    TpcwRandom r = TpcwRandom.of(seed, ADDRESS, a);
    out.add(TpcwTable.ADDRESS, Keys.id(a), address(r, Scale.COUNTRIES));
  }

  /** The columns of a new address (also for customers who register during a run). */
  public static Map<String, byte[]> address(TpcwRandom r, int countries) {
    return Values.of("addr_street1", r.aString(15, 40), "addr_street2", r.aString(15, 40),
        "addr_city", r.aString(4, 30), "addr_state", r.aString(2, 20), "addr_zip", r.aString(5, 10),
        "addr_co_id", r.between(1, countries));
  }

  public void customer(long c, RowSink out) {
    TpcwRandom r = TpcwRandom.of(seed, CUSTOMER, c);
    out.add(TpcwTable.CUSTOMER, Keys.id(c), customer(r, c, r.between(1, scale.addresses()), nowMs));
    out.add(IndexRows.customerName(userName(c), c));
  }

  /** The columns of a new customer (also for customers who register during a run). */
  public static Map<String, byte[]> customer(TpcwRandom r, long c, long addressId, long nowMs) {
    String uname = userName(c);
    long since = nowMs - r.between(1, 730) * DAY_MS;
    return Values.of("c_uname", uname, "c_passwd", password(uname), "c_fname", r.aString(8, 15),
        "c_lname", r.aString(8, 15), "c_addr_id", addressId, "c_discount", r.between(0, 50),
        "c_login", nowMs, "c_last_login", since + r.between(0, 60) * DAY_MS, "c_expiration", nowMs + 7_200_000,
        "c_phone", r.nString(9, 16), "c_email", uname + "@" + r.aString(2, 9) + ".com", "c_since", since,
        "c_birthdate", nowMs / DAY_MS - r.between(365 * 5, 365 * 85), "c_balance", 0,
        "c_ytd_pmt", r.between(0, 99_999), "c_data", r.aString(100, 500));
  }

  /** An order with its lines, its card transaction and its index rows. */
  public void order(long o, RowSink out) {
    TpcwRandom r = TpcwRandom.of(seed, ORDER, o);
    long customer = r.between(1, scale.customers());
    long discount = r.between(0, 30);
    int lines = r.between(1, 5);
    long subTotal = 0;
    for (int l = 1; l <= lines; l++) {
      int item = r.between(1, scale.items());
      long qty = r.between(1, 300);
      subTotal += qty * cost[item] * (100 - discount) / 100;
      out.add(TpcwTable.ORDER_LINE, Keys.child(o, l), Values.of("ol_i_id", item, "ol_qty", qty,
          "ol_discount", discount, "ol_comments", r.aString(20, 100)));
      out.add(IndexRows.sale(items[item], o, l, qty));
    }
    long date = nowMs - r.between(1, 60) * DAY_MS;
    long tax = subTotal * 825 / 10_000;
    long total = subTotal + tax + 300 + 100L * lines;
    out.add(TpcwTable.ORDERS, Keys.id(o), Values.of("o_c_id", customer, "o_date", date, "o_sub_total", subTotal,
        "o_tax", tax, "o_total", total, "o_ship_type", r.pick(Vocabulary.SHIP_TYPES),
        "o_ship_date", date + r.between(0, 7) * DAY_MS, "o_bill_addr_id", r.between(1, scale.addresses()),
        "o_ship_addr_id", r.between(1, scale.addresses()), "o_status", r.pick(Vocabulary.ORDER_STATUS),
        "o_lines", lines));
    out.add(TpcwTable.CC_XACTS, Keys.id(o), Values.of("cx_type", r.pick(Vocabulary.CARD_TYPES),
        "cx_num", r.nString(16, 16), "cx_name", r.aString(14, 30), "cx_expire", date + r.between(10, 730) * DAY_MS,
        "cx_auth_id", r.aString(15, 15), "cx_xact_amt", total, "cx_xact_date", date,
        "cx_co_id", r.between(1, Scale.COUNTRIES)));
    out.add(IndexRows.customerOrder(customer, o));
  }

  static String join(Set<Long> ids) {
    StringBuilder b = new StringBuilder();
    for (long id : ids) {
      b.append(b.length() == 0 ? "" : ",").append(id);
    }
    return b.toString();
  }
}
