package org.logbase.bench.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The share of this machine's CPU time its hypervisor gave to others ("steal", the eighth number of
 * {@code /proc/stat}'s {@code cpu} line): on a shared virtual machine it rose from nothing to half
 * within minutes while a benchmark ran (docs/benchmarks.md, "Compaction", stop 40), and a window
 * measured then is slower for reasons of its host's. Benchmarks print it beside what they measure.
 */
public final class CpuSteal {
  private static final Path STAT = Path.of("/proc/stat");

  private CpuSteal() {}

  /** Steal and total ticks of all CPUs now; null where the system has no {@code /proc/stat}. */
  public static long[] now() {
    try {
      List<String> lines = Files.readAllLines(STAT);
      String[] f = lines.get(0).trim().split("\\s+");
      if (!f[0].equals("cpu") || f.length < 9) {
        return null;
      }
      long total = 0;
      for (int i = 1; i < Math.min(f.length, 9); i++) { // user to steal; guest time is inside user already
        total += Long.parseLong(f[i]);
      }
      return new long[] {Long.parseLong(f[8]), total};
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The share of the CPU time between two {@link #now} samples that was stolen; NaN if unknown. */
  public static double share(long[] from, long[] to) {
    if (from == null || to == null || to[1] <= from[1]) {
      return Double.NaN;
    }
    return (double) (to[0] - from[0]) / (to[1] - from[1]);
  }
}
