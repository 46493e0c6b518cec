package org.logbase.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.logbase.common.CorruptRecordException;

/** Torn tails end a scan at the last good record; corrupt records are reported and skipped, never served. */
class SegmentDamageTest {
  static final int N = 200;
  @TempDir Path tmp;
  FileSystem fs;
  org.apache.hadoop.fs.Path dir;
  List<AppendedRecord> written;

  @BeforeEach
  void write() throws Exception {
    fs = LogFileSystems.open(URI.create("file:///"), new Configuration());
    dir = new org.apache.hadoop.fs.Path(tmp.toUri().toString(), "log");
    written = new ArrayList<>();
    try (LogWriter w = LogWriter.open(fs, dir, LogConfig.DEFAULT, 1, (b, e) -> {})) {
      for (int i = 0; i < N; i++) {
        byte[] v = new byte[100 + (i * 37) % 900];
        java.util.Arrays.fill(v, (byte) i);
        written.addAll(w.append(List.of(LogRecord.data(i + 1, 0, 1, 0, 0,
            ("k" + i).getBytes(StandardCharsets.UTF_8), List.of(new LogRecord.Column("v", v)))),
            Durability.HFLUSH).join());
      }
    }
  }

  @AfterEach
  void close() throws Exception {
    fs.close();
  }

  Path segmentFile() {
    return Path.of(SegmentFiles.path(dir, 1).toUri());
  }

  List<AppendedRecord> scan(List<LogDamage> damage) throws Exception {
    List<AppendedRecord> out = new ArrayList<>();
    LogScanner.scan(fs, dir, LogPosition.START, LogConfig.DEFAULT.maxFrameBytes(), damage::add, out::add);
    return out;
  }

  long offsetOf(int i) {
    return LogPointer.offset(written.get(i).pointer());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 8, 20, 60, 150})
  void aTruncatedSegmentEndsAtTheLastCompleteRecord(int cutInto) throws Exception {
    int last = 123;
    long cut = offsetOf(last) + Math.min(cutInto, written.get(last).frameLength() - 1);
    try (RandomAccessFile f = new RandomAccessFile(segmentFile().toFile(), "rw")) {
      f.setLength(cut);
    }
    List<LogDamage> damage = new ArrayList<>();
    List<AppendedRecord> got = scan(damage);
    assertEquals(last, got.size(), "records before the torn one survive");
    for (int i = 0; i < last; i++) {
      assertEquals(written.get(i).record().lsn(), got.get(i).record().lsn());
    }
    assertEquals(1, damage.size());
    assertEquals(LogDamage.Kind.TORN_TAIL, damage.get(0).kind());
    assertEquals(offsetOf(last), damage.get(0).offset());
  }

  @Test
  void aSegmentCutInsideItsHeaderHoldsNothing() throws Exception {
    try (RandomAccessFile f = new RandomAccessFile(segmentFile().toFile(), "rw")) {
      f.setLength(11);
    }
    List<LogDamage> damage = new ArrayList<>();
    assertTrue(scan(damage).isEmpty());
    assertEquals(LogDamage.Kind.TORN_TAIL, damage.get(0).kind());
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 2, 5, 9, 30, 77})
  void aFlippedByteInTheMiddleIsReportedAndNeverReturned(int byteInRecord) throws Exception {
    int victim = 100;
    long at = offsetOf(victim) + byteInRecord;
    byte[] all = Files.readAllBytes(segmentFile());
    all[(int) at] ^= 0x5A;
    Files.write(segmentFile(), all);

    List<LogDamage> damage = new ArrayList<>();
    List<AppendedRecord> got = scan(damage);
    assertEquals(N - 1, got.size(), "every record but the damaged one");
    assertFalse(got.stream().anyMatch(r -> r.record().lsn() == written.get(victim).record().lsn()));
    assertEquals(1, damage.size(), damage.toString());
    LogDamage d = damage.get(0);
    assertEquals(LogDamage.Kind.CORRUPT, d.kind());
    assertEquals(offsetOf(victim), d.offset());
    assertEquals(written.get(victim).frameLength(), d.length());

    try (RecordReader reader = new RecordReader(fs, dir)) {
      AppendedRecord v = written.get(victim);
      CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> reader.read(v.pointer(), v.frameLength()));
      assertTrue(e.getMessage().contains("offset " + offsetOf(victim)), e.getMessage());
      AppendedRecord ok = written.get(victim + 1);
      assertEquals(ok.record().lsn(), reader.read(ok.pointer(), ok.frameLength()).lsn());
    }
  }

  @Test
  void garbageAfterTheLastRecordIsATornTailNotData() throws Exception {
    byte[] junk = new byte[5000];
    new java.util.Random(7).nextBytes(junk);
    Files.write(segmentFile(), junk, java.nio.file.StandardOpenOption.APPEND);
    List<LogDamage> damage = new ArrayList<>();
    assertEquals(N, scan(damage).size());
    assertEquals(List.of(LogDamage.Kind.TORN_TAIL), damage.stream().map(LogDamage::kind).toList());
  }
}
