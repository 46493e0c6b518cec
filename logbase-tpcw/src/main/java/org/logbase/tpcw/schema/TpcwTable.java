package org.logbase.tpcw.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.logbase.client.TableDefinition;

/**
 * The TPC-W tables as LogBase tables: the specification's ten, the index tables for the access
 * paths beyond the primary key, and the id sequences. Each has its column groups (hot attributes
 * apart from cold ones, attributes written together in one group) and a way to choose split keys
 * so that its rows and its load spread over the tablets. docs/tpcw.md gives the reasons.
 */
public enum TpcwTable {
  ITEM(Split.ID,
      "list", "i_title,i_a_id,i_subject,i_pub_date,i_srp,i_cost,i_thumbnail,i_related",
      "stock", "i_stock,i_sold,i_restocks",
      "detail", "i_desc,i_image,i_publisher,i_isbn,i_page,i_backing,i_dimensions,i_avail,i_stock0"),
  AUTHOR(Split.ID, "name", "a_fname,a_lname,a_mname", "bio", "a_dob,a_bio"),
  CUSTOMER(Split.ID,
      "login", "c_uname,c_passwd,c_fname,c_lname,c_addr_id,c_discount",
      "session", "c_login,c_last_login,c_expiration",
      "profile", "c_phone,c_email,c_since,c_birthdate,c_balance,c_ytd_pmt,c_data"),
  ADDRESS(Split.ID, "addr", "addr_street1,addr_street2,addr_city,addr_state,addr_zip,addr_co_id"),
  COUNTRY(Split.NONE, "country", "co_name,co_exchange,co_currency"),
  ORDERS(Split.ID, "order",
      "o_c_id,o_date,o_sub_total,o_tax,o_total,o_ship_type,o_ship_date,o_bill_addr_id,o_ship_addr_id,o_status,o_lines"),
  ORDER_LINE(Split.ID, "line", "ol_i_id,ol_qty,ol_discount", "comment", "ol_comments"),
  CC_XACTS(Split.ID, "cc", "cx_type,cx_num,cx_name,cx_expire,cx_auth_id,cx_xact_amt,cx_xact_date,cx_co_id"),
  SHOPPING_CART(Split.ID, "cart", "sc_time,sc_sub_total,sc_items"),
  SHOPPING_CART_LINE(Split.ID, "line", "scl_qty,scl_cost,scl_srp,scl_title,scl_backing"),
  /** Search by title: one row per word of a title, {@code word|title|i_id}. */
  ITEM_BY_TITLE(Split.SYLLABLES, "ref", "i_id,i_title,a_fname,a_lname"),
  /** Search by author: {@code a_lname|title|i_id}. */
  ITEM_BY_AUTHOR(Split.SYLLABLES, "ref", "i_id,i_title,a_fname,a_lname"),
  /** Search by subject: {@code subject|title|i_id}. */
  ITEM_BY_SUBJECT(Split.SUBJECTS, "ref", "i_id,i_title,a_fname,a_lname"),
  /** New products: {@code subject|pub date, newest first|title|i_id}. */
  NEW_PRODUCTS(Split.SUBJECTS, "ref", "i_id,i_title,a_fname,a_lname,i_pub_date"),
  /** Best sellers: one row per order line, {@code subject|o_id|ol_id}. */
  ITEM_SALES(Split.SUBJECTS, "sale", "i_id,qty,i_title,a_fname,a_lname"),
  /** Customers by user name: {@code bucket:uname}. */
  CUSTOMER_BY_UNAME(Split.ID, "ref", "c_id"),
  /** A customer's orders, newest first: {@code c key|o_id descending}. */
  CUSTOMER_ORDERS(Split.ID, "ref", "o_id"),
  /** Id sequences (one row per table that gets new rows) and what the load wrote. */
  SEQUENCES(Split.NONE, "seq", "next,loaded", "scale", "items,browsers,seed,load_time");

  /** How a table's split keys are chosen. */
  enum Split { NONE, ID, SYLLABLES, SUBJECTS }

  private final Split split;
  private final Map<String, List<String>> groups = new LinkedHashMap<>();

  TpcwTable(Split split, String... groupsAndColumns) {
    this.split = split;
    for (int i = 0; i < groupsAndColumns.length; i += 2) {
      groups.put(groupsAndColumns[i], List.of(groupsAndColumns[i + 1].split(",")));
    }
  }

  /** The table's name in the cluster. */
  public String table() {
    return name();
  }

  /** The columns of one column group. */
  public List<String> group(String name) {
    List<String> g = groups.get(name);
    if (g == null) {
      throw new IllegalArgumentException(name() + " has no column group " + name);
    }
    return g;
  }

  public TableDefinition definition() {
    TableDefinition.Builder b = TableDefinition.builder(table());
    groups.forEach(b::columnGroup);
    return b.build();
  }

  /** Split keys for about {@code tablets} tablets (fewer where the table is small or its key space coarse). */
  public byte[][] splitKeys(int tablets) {
    List<String> candidates = switch (split) {
      case NONE -> List.of();
      case ID -> {
        List<String> c = new ArrayList<>();
        for (int b = 1; b < 256; b++) {
          c.add(String.format("%02x", b));
        }
        yield c;
      }
      case SYLLABLES -> {
        TreeSet<String> c = new TreeSet<>();
        for (String a : Vocabulary.SYLLABLES) {
          for (String b : Vocabulary.SYLLABLES) {
            c.add(a + b);
          }
        }
        yield new ArrayList<>(c);
      }
      case SUBJECTS -> new ArrayList<>(new TreeSet<>(Vocabulary.SUBJECTS));
    };
    return evenlySpaced(candidates, tablets);
  }

  /** n - 1 keys spaced evenly through sorted candidates, which lie above the smallest key. */
  private static byte[][] evenlySpaced(List<String> sorted, int tablets) {
    int n = Math.min(tablets, sorted.size());
    byte[][] out = new byte[Math.max(0, n - 1)][];
    for (int i = 1; i < n; i++) {
      out[i - 1] = Keys.utf8(sorted.get((int) ((long) i * sorted.size() / n)));
    }
    return out;
  }
}
