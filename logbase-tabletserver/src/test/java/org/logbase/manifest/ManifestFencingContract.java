package org.logbase.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;
import org.logbase.rpc.CheckpointEdit;
import org.logbase.rpc.ManifestEdit;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TabletId;
import org.logbase.testing.TestTables;

/**
 * A tablet's old owner, paused past its session while the tablet was given to a new owner, writes
 * its manifest after the new owner took over: none of what it writes is ever read, and it learns
 * that it was superseded. The two owners are two file-system clients (on HDFS, two lease holders);
 * every test fails with the manifest that appended to whatever file was newest and replaced files
 * on its rolls (and the daughter test with the split that deleted an interrupted split's daughter
 * directory and wrote it from file 1 again). Run against each file system by a subclass.
 */
abstract class ManifestFencingContract {
  static final TabletId TABLET = new TabletId(1, 0);
  static final TabletDescriptor PARENT = TestTables.whole(TestTables.USERS);
  /** The parent's left daughter in the split tests (its right one is 8). */
  static final TabletId LEFT = new TabletId(PARENT.schema().id(), 7);
  private static final Consumer<String> IGNORE = problem -> { };

  /** The old owner's client, set by the subclass before each test. */
  FileSystem oldOwner;
  /** The new owner's client, another one. */
  FileSystem newOwner;

  /** A directory of the test's own. */
  abstract Path dir(String name);

  static ManifestEdit checkpoint(long lsn) {
    return ManifestEdit.newBuilder().setCheckpoint(CheckpointEdit.newBuilder().setLsn(lsn).setLogDir("/log")).build();
  }

  /** {@link #TABLET}'s manifest in {@code dir} opened by {@code client}, which then writes checkpoints at {@code lsns}. */
  static ManifestLog opened(FileSystem client, Path dir, long... lsns) throws IOException {
    ManifestLog m = ManifestLog.open(client, dir, TABLET, IGNORE);
    for (long lsn : lsns) {
      m.append(checkpoint(lsn));
    }
    return m;
  }

  long newestLsn(Path dir, TabletId tablet) throws IOException {
    return ManifestLog.read(newOwner, dir, tablet).newest().getLsn();
  }

  @Test
  void anOldOwnerWritingAfterTheNewOneTookOverIsRefusedAndNothingOfItIsRead() throws IOException {
    Path dir = dir("after");
    ManifestLog old = opened(oldOwner, dir, 1, 2);
    ManifestLog taken = opened(newOwner, dir, 3); // 3: the takeover's checkpoint

    assertThrows(ManifestFencedException.class, () -> old.append(checkpoint(99)));
    assertThrows(ManifestFencedException.class, () -> old.append(checkpoint(100)), "and again");
    assertEquals(3, newestLsn(dir, TABLET));
    taken.append(checkpoint(4));
    assertEquals(4, newestLsn(dir, TABLET), "the new owner goes on");
    assertEquals(List.of(4L, 3L), ManifestLog.open(newOwner, dir, TABLET, IGNORE).current().checkpoints().stream()
        .map(CheckpointEdit::getLsn).toList());
  }

  @Test
  void aClaimFencesTheOldOwnerBeforeTheNewOneWritesAnyEdit() throws IOException {
    Path dir = dir("claim");
    ManifestLog old = opened(oldOwner, dir, 1);
    ManifestLog taken = opened(newOwner, dir);
    taken.claim(); // a takeover, as it opens the tablet: before it replays the old owner's log

    assertThrows(ManifestFencedException.class, () -> old.append(checkpoint(2)));
    assertEquals(1, newestLsn(dir, TABLET), "what the new owner read is what stands");
    taken.append(checkpoint(3));
    assertEquals(3, newestLsn(dir, TABLET));
  }

  @Test
  void aDaughterWrittenAnewByASplitRedoFencesTheInterruptedSplitsWriter() throws IOException {
    Path root = dir("redo");
    // An interrupted split (its server paused past its session) had begun the left daughter.
    ManifestLog interrupted = new Manifests(oldOwner, root).log(LEFT, IGNORE);
    interrupted.replace(List.of(ManifestEdit.newBuilder().setRange(TabletManifest.range(null, utf8("m"))).build(),
        checkpoint(1)));
    // The parent's new server splits it again.
    Manifests taken = new Manifests(newOwner, root);
    taken.log(PARENT.id(), IGNORE).append(checkpoint(2));
    taken.split(PARENT, utf8("m"), 7, 8, IGNORE);

    assertThrows(ManifestFencedException.class, () -> interrupted.append(checkpoint(99)));
    assertEquals(2, newestLsn(taken.directory(LEFT), LEFT), "the redo's daughter stands");
  }

  @Test
  void aDaughterLeftUnreadableByAnInterruptedSplitIsWrittenAnewAboveItsNumber() throws IOException {
    Path root = dir("unreadable");
    Manifests taken = new Manifests(newOwner, root);
    Path daughter = taken.directory(LEFT);
    newOwner.mkdirs(daughter);
    try (FSDataOutputStream out = newOwner.create(new Path(daughter, String.format("MANIFEST-%020d", 3)))) {
      out.write(new byte[] {0, 0, 0, 2, 9, 9, 9, 9, 1, 2}); // an edit failing its CRC: unreadable
    }
    taken.log(PARENT.id(), IGNORE).append(checkpoint(2));
    taken.split(PARENT, utf8("m"), 7, 8, IGNORE);

    assertEquals(2, newestLsn(daughter, LEFT));
    assertEquals(List.of(String.format("MANIFEST-%020d", 4)), Arrays.stream(newOwner.listStatus(daughter))
        .map(f -> f.getPath().getName()).toList(), "numbered above the leftover, which is gone");
  }

  @Test
  void anOldOwnersRollRacingTheNewOwnersLosesAtTheRename() throws IOException {
    Path dir = dir("race");
    opened(oldOwner, dir, 1);
    ManifestLog taken = opened(newOwner, dir);
    boolean[] raced = {false};
    // The old owner, opened before the takeover, rolls (its first edit does); the new owner's roll
    // to the same number is done while the old owner writes its temporary file.
    FileSystem pausing = new FilterFileSystem(oldOwner) {
      @Override
      public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
          short replication, long blockSize, Progressable progress) throws IOException {
        if (!raced[0]) {
          raced[0] = true;
          taken.append(checkpoint(3));
        }
        return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
      }
    };
    ManifestLog old = ManifestLog.open(pausing, dir, TABLET, IGNORE);
    assertThrows(ManifestFencedException.class, () -> old.append(checkpoint(99)));
    assertTrue(raced[0]);
    assertEquals(3, newestLsn(dir, TABLET));
    for (FileStatus f : newOwner.listStatus(dir)) {
      assertTrue(!f.getPath().getName().endsWith(".tmp"), "the loser's temporary file is gone: " + f.getPath());
    }
  }

  @Test
  void anAppendUnderWayWhenTheNewOwnerTakesOverIsNeverRead() throws IOException {
    Path dir = dir("underway");
    boolean[] raced = {false};
    ManifestLog[] taken = {null};
    FileSystem pausing = new FilterFileSystem(oldOwner) {
      @Override
      public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
        FSDataOutputStream out = super.append(f, bufferSize, progress);
        if (taken[0] != null && !raced[0]) {
          raced[0] = true;
          taken[0].append(checkpoint(3)); // between the old owner's open for append and its write
        }
        return out;
      }
    };
    ManifestLog old = ManifestLog.open(pausing, dir, TABLET, IGNORE);
    old.append(checkpoint(1));
    old.append(checkpoint(2));
    taken[0] = ManifestLog.open(newOwner, dir, TABLET, IGNORE);
    try {
      old.append(checkpoint(99));
    } catch (IOException fenced) {
      // HDFS: the file it appended to is gone; a local file system lets it write to the unlinked file
    }
    assertTrue(raced[0]);
    assertEquals(3, newestLsn(dir, TABLET));
  }

  @Test
  void aSplitByAServerThatLostTheParentLeavesTheDaughtersAlone() throws IOException {
    Path root = dir("split");
    Manifests old = new Manifests(oldOwner, root);
    old.log(PARENT.id(), IGNORE).append(checkpoint(1));
    // The new owner takes the parent over and splits it; the left daughter is opened and checkpointed.
    Manifests taken = new Manifests(newOwner, root);
    taken.log(PARENT.id(), IGNORE).append(checkpoint(2));
    taken.split(PARENT, utf8("m"), 7, 8, IGNORE);
    new Manifests(newOwner, root).log(LEFT, IGNORE).append(checkpoint(5));

    assertThrows(ManifestFencedException.class, () -> old.split(PARENT, utf8("m"), 7, 8, IGNORE));
    assertEquals(5, newestLsn(taken.directory(LEFT), LEFT), "the daughter's manifest is as its server wrote it");
    assertTrue(ManifestLog.read(newOwner, taken.directory(PARENT.id()), PARENT.id()).retired());
  }
}
