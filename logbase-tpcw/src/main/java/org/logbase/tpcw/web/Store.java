package org.logbase.tpcw.web;

import org.logbase.client.Transaction;

/**
 * The web store: runs one interaction's work in a transaction the caller opened (read-only for
 * the read-only interactions) and commits. Thread-safe; each browser brings its own
 * {@link Session}.
 */
public final class Store {
  private final BrowseInteractions browse;
  private final CustomerInteractions customer;
  private final OrderInteractions orders;
  private final AdminConfirm adminConfirm;
  private final PaperInteractions paper;

  /**
   * @param items the number of items (1 to items)
   * @param customers the number of loaded customers (random customers are drawn from them)
   */
  public Store(int items, int customers) {
    Catalog catalog = new Catalog(items);
    Customers people = new Customers(customers);
    Carts carts = new Carts(catalog);
    this.browse = new BrowseInteractions(catalog);
    this.customer = new CustomerInteractions(people, carts);
    this.orders = new OrderInteractions(catalog, people, carts);
    this.adminConfirm = new AdminConfirm(catalog);
    this.paper = new PaperInteractions(catalog, people, carts);
  }

  /** Runs the interaction's reads and writes in {@code t}; the caller commits. */
  public void run(Interaction i, Transaction t, Session s) {
    switch (i) {
      case HOME -> browse.home(t, s);
      case NEW_PRODUCTS -> browse.newProducts(t, s);
      case BEST_SELLERS -> browse.bestSellers(t, s);
      case PRODUCT_DETAIL -> browse.productDetail(t, s);
      case SEARCH_REQUEST -> browse.searchRequest(t, s);
      case SEARCH_RESULTS -> browse.searchResults(t, s);
      case SHOPPING_CART -> orders.shoppingCart(t, s);
      case CUSTOMER_REGISTRATION -> customer.customerRegistration(t, s);
      case BUY_REQUEST -> customer.buyRequest(t, s);
      case BUY_CONFIRM -> orders.buyConfirm(t, s);
      case ORDER_INQUIRY -> customer.orderInquiry(t, s);
      case ORDER_DISPLAY -> customer.orderDisplay(t, s);
      case ADMIN_REQUEST -> browse.adminRequest(t, s);
      case ADMIN_CONFIRM -> adminConfirm.run(t, s);
      case PAPER_READ -> paper.read(t, s);
      case PAPER_UPDATE -> paper.update(t, s);
      default -> throw new IllegalArgumentException("unknown interaction " + i);
    }
  }
}
