package org.logbase.ycsb;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import site.ycsb.measurements.exporter.MeasurementsExporter;
import site.ycsb.measurements.exporter.TextMeasurementsExporter;

/**
 * Writes YCSB's summary through the exporter the user chose (text by default) and notes the failed
 * operations in it; once the summary is written, ends the process with exit code 1 if any operation
 * failed or the binding could not be set up. YCSB's client itself exits 0 whatever happened.
 */
public final class ExitStatusExporter implements MeasurementsExporter {
  /** Statuses that are not failures: a read of a missing key is an answer. */
  private static final Set<String> SUCCESS = Set.of("Return=OK", "Return=BATCHED_OK", "Return=NOT_FOUND");

  private static volatile String delegateClass = TextMeasurementsExporter.class.getName();

  private final MeasurementsExporter delegate;
  private final List<String> failed = new ArrayList<>();

  public ExitStatusExporter(OutputStream out) throws ReflectiveOperationException {
    this.delegate = (MeasurementsExporter) Class.forName(delegateClass).getConstructor(OutputStream.class)
        .newInstance(out);
  }

  /** The exporter that writes the summary (YCSB's {@code exporter} property as the user gave it). */
  static void delegateTo(String className) {
    delegateClass = className;
  }

  @Override
  public void write(String metric, String measurement, int i) throws IOException {
    note(metric, measurement, i);
    delegate.write(metric, measurement, i);
  }

  @Override
  public void write(String metric, String measurement, long i) throws IOException {
    note(metric, measurement, i);
    delegate.write(metric, measurement, i);
  }

  @Override
  public void write(String metric, String measurement, double d) throws IOException {
    delegate.write(metric, measurement, d);
  }

  private void note(String metric, String measurement, long count) {
    if (measurement.startsWith("Return=") && !SUCCESS.contains(measurement) && count > 0) {
      failed.add("[" + metric + "] " + measurement + ": " + count);
    }
  }

  @Override
  public void close() throws IOException {
    delegate.close();
    String setup = LogBaseYcsbClient.setupFailure();
    if (setup != null) {
      System.err.println("ycsb: cannot set up LogBase: " + setup);
    }
    if (!failed.isEmpty()) {
      System.err.println("ycsb: operations failed: " + String.join(", ", failed) + " (the binding's warnings"
          + " say why; YCSB stops a loading thread at its first failed insert)");
    }
    if (setup != null || !failed.isEmpty()) {
      System.err.flush();
      System.exit(1); // before YCSB's own System.exit(0)
    }
  }
}
