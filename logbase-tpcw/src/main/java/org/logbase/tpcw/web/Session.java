package org.logbase.tpcw.web;

import java.util.ArrayList;
import java.util.List;
import org.logbase.tpcw.data.TpcwRandom;

/**
 * What one emulated browser remembers between interactions: its customer (0 before it has one, or
 * while it registers as a new customer), its shopping cart (0 before it has one), the items of its
 * last search or listing (the next product detail picks one), and its random source. Changes an
 * interaction makes are staged and kept only when its transaction commits.
 */
public final class Session {
  private final TpcwRandom random;
  private final Ids ids;
  private long customer;
  private long cart;
  private List<Long> lastItems = List.of();
  private final List<Runnable> staged = new ArrayList<>();

  public Session(TpcwRandom random, Ids ids, long customer) {
    this.random = random;
    this.ids = ids;
    this.customer = customer;
  }

  public TpcwRandom random() {
    return random;
  }

  public Ids ids() {
    return ids;
  }

  public long customer() {
    return customer;
  }

  public long cart() {
    return cart;
  }

  public List<Long> lastItems() {
    return lastItems;
  }

  public void stageCustomer(long c) {
    staged.add(() -> customer = c);
  }

  public void stageCart(long c) {
    staged.add(() -> cart = c);
  }

  public void stageLastItems(List<Long> items) {
    List<Long> copy = List.copyOf(items);
    staged.add(() -> lastItems = copy);
  }

  /** The interaction's transaction committed: keep what it staged. */
  public void keepStaged() {
    staged.forEach(Runnable::run);
    staged.clear();
  }

  /** The attempt failed: forget what it staged. */
  public void dropStaged() {
    staged.clear();
  }
}
