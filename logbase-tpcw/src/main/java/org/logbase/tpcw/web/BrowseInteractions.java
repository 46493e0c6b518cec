package org.logbase.tpcw.web;

import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.tpcw.data.Population;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Vocabulary;

/** The read-only browsing interactions: Home, New Products, Best Sellers, Product Detail, Search Request and Results. */
final class BrowseInteractions {
  static final int LIST_SIZE = 50;

  private final Catalog catalog;

  BrowseInteractions(Catalog catalog) {
    this.catalog = catalog;
  }

  /** The customer's name if the browser has a customer, and the promotional items. */
  void home(Transaction t, Session s) {
    if (s.customer() != 0) {
      Db.get(t, TpcwTable.CUSTOMER, Keys.id(s.customer()), "login");
    }
    catalog.promotions(t, s);
  }

  /** The 50 newest items of a random subject. */
  void newProducts(Transaction t, Session s) {
    catalog.list(t, s, TpcwTable.NEW_PRODUCTS, Keys.composite(s.random().pick(Vocabulary.SUBJECTS), ""));
  }

  /** The 50 items of a random subject sold most in the recent orders. */
  void bestSellers(Transaction t, Session s) {
    s.stageLastItems(Sales.best(t, s.random().pick(Vocabulary.SUBJECTS), LIST_SIZE));
  }

  /** An item (of the last listing, mostly) with every attribute, and its author. */
  void productDetail(Transaction t, Session s) {
    catalog.detail(t, catalog.nextItem(s));
  }

  /** The search page: promotional items. */
  void searchRequest(Transaction t, Session s) {
    catalog.promotions(t, s);
  }

  /** Up to 50 items by author's last name, title word or subject (one of the three at random), by title. */
  void searchResults(Transaction t, Session s) {
    switch (s.random().between(0, 2)) {
      case 0 -> catalog.list(t, s, TpcwTable.ITEM_BY_AUTHOR, Keys.composite(Population.authorName(s.random()), ""));
      case 1 -> catalog.list(t, s, TpcwTable.ITEM_BY_TITLE, Keys.composite(Population.titleWord(s.random()), ""));
      default -> catalog.list(t, s, TpcwTable.ITEM_BY_SUBJECT, Keys.composite(s.random().pick(Vocabulary.SUBJECTS), ""));
    }
  }

  /** Admin Request: the item to change, with every attribute. */
  Row adminRequest(Transaction t, Session s) {
    return catalog.detail(t, catalog.nextItem(s));
  }
}
