package org.logbase.bench.engine;

import java.util.ArrayList;
import java.util.List;

/** The values one side of a comparison measured in its trials. */
public final class Sample {
  private final List<Double> values = new ArrayList<>();

  public void add(double v) {
    values.add(v);
  }

  public int size() {
    return values.size();
  }

  public double median() {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> s = new ArrayList<>(values);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  public double max() {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  public double min() {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }
}
