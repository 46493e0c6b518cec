package org.logbase.tpcw.web;

/**
 * The 14 web interactions of TPC-W, and the two transactions of the paper's reduced workload. A
 * read-only interaction runs as a read-only snapshot transaction; the others as read-write
 * transactions, retried on conflict.
 */
public enum Interaction {
  HOME("Home", true),
  NEW_PRODUCTS("New Products", true),
  BEST_SELLERS("Best Sellers", true),
  PRODUCT_DETAIL("Product Detail", true),
  SEARCH_REQUEST("Search Request", true),
  SEARCH_RESULTS("Search Results", true),
  SHOPPING_CART("Shopping Cart", false),
  CUSTOMER_REGISTRATION("Customer Registration", true),
  BUY_REQUEST("Buy Request", false),
  BUY_CONFIRM("Buy Confirm", false),
  ORDER_INQUIRY("Order Inquiry", true),
  ORDER_DISPLAY("Order Display", true),
  ADMIN_REQUEST("Admin Request", true),
  ADMIN_CONFIRM("Admin Confirm", false),
  /** The paper's read-only transaction: read one item. */
  PAPER_READ("Paper Read", true),
  /** The paper's update transaction: read the browser's shopping cart, write an order. */
  PAPER_UPDATE("Paper Update", false);

  private final String title;
  private final boolean readOnly;

  Interaction(String title, boolean readOnly) {
    this.title = title;
    this.readOnly = readOnly;
  }

  public String title() {
    return title;
  }

  public boolean readOnly() {
    return readOnly;
  }
}
