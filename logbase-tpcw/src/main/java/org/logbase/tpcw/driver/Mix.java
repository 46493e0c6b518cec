package org.logbase.tpcw.driver;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.logbase.tpcw.data.TpcwRandom;
import org.logbase.tpcw.web.Interaction;

/**
 * The workload mixes: TPC-W's browsing, shopping and ordering mixes with the specification's
 * interaction frequencies (percent of all interactions), and the paper's reduced mixes (5%, 20% and
 * 50% update transactions). Each interaction a browser makes is drawn by these frequencies.
 */
public enum Mix {
  //                    Home  NewP  Best  Detl  SReq  SRes  Cart  Reg   BReq  BConf OInq  ODis  AReq  AConf
  BROWSING(new double[] {29.00, 11.00, 11.00, 21.00, 12.00, 11.00, 2.00, 0.82, 0.75, 0.69, 0.30, 0.25, 0.10, 0.09}),
  SHOPPING(new double[] {16.00, 5.00, 5.00, 17.00, 20.00, 17.00, 11.60, 3.00, 2.60, 1.20, 0.75, 0.66, 0.10, 0.09}),
  ORDERING(new double[] {9.12, 0.46, 0.46, 12.35, 14.53, 13.08, 13.53, 12.86, 12.73, 10.18, 0.25, 0.22, 0.12, 0.11}),
  PAPER_BROWSING(95, 5),
  PAPER_SHOPPING(80, 20),
  PAPER_ORDERING(50, 50);

  private final Map<Interaction, Double> percent = new EnumMap<>(Interaction.class);
  private final Interaction[] order;
  private final double[] cumulative;

  Mix(double[] tpcw) {
    Interaction[] all = Interaction.values();
    for (int i = 0; i < tpcw.length; i++) {
      percent.put(all[i], tpcw[i]);
    }
    order = percent.keySet().toArray(Interaction[]::new);
    cumulative = cumulative(percent);
  }

  Mix(double reads, double updates) {
    percent.put(Interaction.PAPER_READ, reads);
    percent.put(Interaction.PAPER_UPDATE, updates);
    order = percent.keySet().toArray(Interaction[]::new);
    cumulative = cumulative(percent);
  }

  private static double[] cumulative(Map<Interaction, Double> percent) {
    double[] c = new double[percent.size()];
    double sum = 0;
    int i = 0;
    for (double p : percent.values()) {
      sum += p;
      c[i++] = sum;
    }
    if (Math.abs(sum - 100) > 1e-6) {
      throw new IllegalStateException("a mix's frequencies add up to 100%, not " + sum);
    }
    return c;
  }

  /** The name on the command line: browsing, paper-shopping, ... */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static Mix parse(String label) {
    for (Mix m : values()) {
      if (m.label().equals(label)) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown mix '" + (label.length() > 40 ? label.substring(0, 40) + "..." : label)
        + "'; known: " + Arrays.stream(values()).map(Mix::label).collect(Collectors.joining(", ")));
  }

  /** The interactions of this mix and their frequencies in percent. */
  public Map<Interaction, Double> frequencies() {
    return percent;
  }

  /** An interaction drawn by the mix's frequencies. */
  public Interaction pick(TpcwRandom r) {
    double x = r.unit() * 100;
    for (int i = 0; i < order.length; i++) {
      if (x < cumulative[i]) {
        return order[i];
      }
    }
    return order[order.length - 1];
  }
}
