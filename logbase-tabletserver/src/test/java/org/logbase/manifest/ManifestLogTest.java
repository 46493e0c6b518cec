package org.logbase.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.log.LogFileSystems;
import org.logbase.rpc.CheckpointEdit;
import org.logbase.rpc.ManifestEdit;
import org.logbase.tablet.TabletId;

/** A tablet's manifest: edits made durable one by one, a torn last edit ignored, files rewritten whole. */
class ManifestLogTest {
  static final TabletId TABLET = new TabletId(1, 0);
  @TempDir Path dir;
  FileSystem fs;
  final List<String> problems = new ArrayList<>();

  @BeforeEach
  void open() throws IOException {
    fs = LogFileSystems.open(dir.toUri(), new Configuration());
  }

  @AfterEach
  void close() throws IOException {
    fs.close();
  }

  ManifestLog log() throws IOException {
    return ManifestLog.open(fs, new org.apache.hadoop.fs.Path(dir.toUri()), TABLET, problems::add);
  }

  static ManifestEdit checkpoint(long lsn) {
    return ManifestEdit.newBuilder().setCheckpoint(CheckpointEdit.newBuilder().setLsn(lsn).setLogDir("/log")).build();
  }

  List<Path> manifestFiles() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith("MANIFEST-")).sorted().toList();
    }
  }

  @Test
  void editsSurviveAReopenAndTheNewestTwoCheckpointsAreKept() throws IOException {
    ManifestLog m = log();
    assertFalse(m.exists());
    assertNull(m.current().newest());
    m.append(ManifestEdit.newBuilder().setRange(TabletManifest.range(null, new byte[] {5})).build());
    for (long lsn = 1; lsn <= 5; lsn++) {
      m.append(checkpoint(lsn));
    }
    TabletManifest back = log().current();
    assertEquals(List.of(5L, 4L), back.checkpoints().stream().map(CheckpointEdit::getLsn).toList());
    assertTrue(back.range().getHasEnd());
    assertEquals(1, manifestFiles().size());
    assertTrue(problems.isEmpty(), problems.toString());
  }

  @Test
  void aTornLastEditNeverHappened() throws IOException {
    ManifestLog m = log();
    m.append(checkpoint(1));
    m.append(checkpoint(2));
    Path file = manifestFiles().get(0);
    byte[] b = Files.readAllBytes(file);
    byte[] edit = ManifestLog.frame(checkpoint(3));
    for (int cut = 1; cut < edit.length; cut++) {
      byte[] torn = new byte[b.length + cut];
      System.arraycopy(b, 0, torn, 0, b.length);
      System.arraycopy(edit, 0, torn, b.length, cut);
      Files.write(file, torn);
      problems.clear();
      ManifestLog back = log();
      assertEquals(2, back.current().newest().getLsn(), "cut after " + cut + " bytes");
      assertEquals(1, problems.size(), problems.toString());
    }
    // Appending after a torn edit starts a new file, which holds no trace of it.
    ManifestLog back = log();
    back.append(checkpoint(4));
    assertEquals(List.of(4L, 2L), log().current().checkpoints().stream().map(CheckpointEdit::getLsn).toList());
  }

  @Test
  void aFileIsRewrittenWholeEverySoManyEditsAndTheOldOneDeleted() throws IOException {
    ManifestLog m = log();
    for (long lsn = 1; lsn <= ManifestLog.ROLL_EDITS + 3; lsn++) {
      m.append(checkpoint(lsn));
    }
    List<Path> files = manifestFiles();
    assertEquals(1, files.size(), files.toString());
    assertTrue(files.get(0).getFileName().toString().endsWith("2"), files.toString());
    assertEquals(ManifestLog.ROLL_EDITS + 3, log().current().newest().getLsn());
  }

  @Test
  void aFileSystemThatCannotAppendGetsTheManifestWrittenAnew() throws IOException {
    FileSystem noAppend = new FilterFileSystem(fs) {
      @Override
      public org.apache.hadoop.fs.FSDataOutputStream append(org.apache.hadoop.fs.Path f, int bufferSize,
          org.apache.hadoop.util.Progressable progress) throws IOException {
        throw new IOException("append is not supported here");
      }
    };
    ManifestLog m = ManifestLog.open(noAppend, new org.apache.hadoop.fs.Path(dir.toUri()), TABLET, problems::add);
    for (long lsn = 1; lsn <= 3; lsn++) {
      m.append(checkpoint(lsn));
    }
    assertEquals(1, manifestFiles().size());
    assertEquals(3, log().current().newest().getLsn());
  }

  @Test
  void aManifestThatExistsButCannotBeReadIsRefusedNotTakenForEmpty() throws IOException {
    ManifestLog m = log();
    m.append(checkpoint(1));
    Path file = manifestFiles().get(0);
    byte[] b = Files.readAllBytes(file);
    b[5] ^= 0x55; // the first edit's CRC fails: nothing in the file is usable
    Files.write(file, b);
    IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, this::log);
    assertTrue(e.getMessage().contains("can be read"), e.getMessage());
  }

  /** A takeover's claim of a manifest whose newest file could not be read leaves that file for repair. */
  @Test
  void aClaimAfterFallingBackToAnOlderFileDeletesNothing() throws IOException {
    ManifestLog m = log();
    m.append(checkpoint(1));
    Path older = manifestFiles().get(0);
    Path newest = older.resolveSibling(String.format("MANIFEST-%020d", 2));
    Files.write(newest, new byte[] {0, 0, 0, 2, 9, 9, 9, 9, 1, 2}); // fails its CRC
    ManifestLog fellBack = log();
    assertEquals(1, fellBack.current().newest().getLsn());
    fellBack.claim();
    assertEquals(List.of(older, newest), manifestFiles());
  }

  @Test
  void anAppendCutShortWhoseRewriteFailedTooIsNotFollowedByEditsNobodyCanRead() throws IOException {
    boolean[] broken = {false};
    FileSystem flaky = new FilterFileSystem(fs) {
      @Override
      public org.apache.hadoop.fs.FSDataOutputStream append(org.apache.hadoop.fs.Path f, int bufferSize,
          org.apache.hadoop.util.Progressable progress) throws IOException {
        if (!broken[0]) {
          return fs.append(f, bufferSize, progress);
        }
        try (org.apache.hadoop.fs.FSDataOutputStream out = fs.append(f, bufferSize, progress)) {
          out.write(new byte[] {0, 0, 0, 40, 1, 2}); // part of a frame, then the pipeline fails
        }
        throw new IOException("pipeline failed");
      }

      @Override
      public org.apache.hadoop.fs.FSDataOutputStream create(org.apache.hadoop.fs.Path f,
          org.apache.hadoop.fs.permission.FsPermission permission, boolean overwrite, int bufferSize, short replication,
          long blockSize, org.apache.hadoop.util.Progressable progress) throws IOException {
        if (broken[0]) {
          throw new IOException("no new files either");
        }
        return fs.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
      }
    };
    ManifestLog m = ManifestLog.open(flaky, new org.apache.hadoop.fs.Path(dir.toUri()), TABLET, problems::add);
    m.append(checkpoint(1));
    m.append(checkpoint(2));
    broken[0] = true;
    org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> m.append(checkpoint(3)));
    broken[0] = false;
    m.append(checkpoint(4));
    assertEquals(4, log().current().newest().getLsn(), "an edit made after the failure is read back");
  }

  /**
   * An append whose close fails after the edit reached the file, while another server opens the
   * tablet (reading the edit) and claims the manifest: the writer's roll is then fenced, yet the
   * edit is in force. That must not be reported as a fence (which promises nothing was written and
   * lets the checkpoint delete the index files its edit names), but as a failure that may have
   * written, with the fence as its cause. Found by review (helper-46).
   */
  @Test
  void anAppendFencedAfterItMayHaveReachedTheFileIsNotReportedAsNothingWritten() throws IOException {
    org.apache.hadoop.fs.Path d = new org.apache.hadoop.fs.Path(dir.toUri());
    boolean[] takeOverOnClose = {false};
    List<ManifestLog> newOwner = new ArrayList<>();
    FileSystem takenOverOnClose = new FilterFileSystem(fs) {
      @Override
      public org.apache.hadoop.fs.FSDataOutputStream append(org.apache.hadoop.fs.Path f, int bufferSize,
          org.apache.hadoop.util.Progressable progress) throws IOException {
        org.apache.hadoop.fs.FSDataOutputStream out = fs.append(f, bufferSize, progress);
        if (!takeOverOnClose[0]) {
          return out;
        }
        return new org.apache.hadoop.fs.FSDataOutputStream(out, null) {
          @Override
          public void close() throws IOException {
            super.close(); // the edit is whole in the file
            ManifestLog taker = ManifestLog.open(fs, d, TABLET, problems::add);
            taker.claim();
            newOwner.add(taker);
            throw new IOException("close failed: the file's lease was recovered");
          }
        };
      }
    };
    ManifestLog old = ManifestLog.open(takenOverOnClose, d, TABLET, problems::add);
    old.append(checkpoint(1));
    old.append(checkpoint(2));
    takeOverOnClose[0] = true;

    IOException e = assertThrows(IOException.class, () -> old.append(checkpoint(3)));

    assertFalse(e instanceof ManifestFencedException, e.toString());
    assertInstanceOf(ManifestFencedException.class, e.getCause());
    assertEquals(3, newOwner.get(0).current().newest().getLsn());
    assertEquals(3, log().current().newest().getLsn());
  }
}
