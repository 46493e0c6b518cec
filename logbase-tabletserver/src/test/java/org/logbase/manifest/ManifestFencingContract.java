package org.logbase.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * on its rolls. Run against each file system by a subclass.
 */
abstract class ManifestFencingContract {
  static final TabletId TABLET = new TabletId(1, 0);
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

  long newestLsn(Path dir, TabletId tablet) throws IOException {
    return ManifestLog.read(newOwner, dir, tablet).newest().getLsn();
  }

  @Test
  void anOldOwnerWritingAfterTheNewOneTookOverIsRefusedAndNothingOfItIsRead() throws IOException {
    Path dir = dir("after");
    ManifestLog old = ManifestLog.open(oldOwner, dir, TABLET, IGNORE);
    old.append(checkpoint(1));
    old.append(checkpoint(2));
    ManifestLog taken = ManifestLog.open(newOwner, dir, TABLET, IGNORE);
    taken.append(checkpoint(3)); // the takeover's checkpoint

    assertThrows(ManifestFencedException.class, () -> old.append(checkpoint(99)));
    assertThrows(ManifestFencedException.class, () -> old.append(checkpoint(100)), "and again");
    assertEquals(3, newestLsn(dir, TABLET));
    taken.append(checkpoint(4));
    assertEquals(4, newestLsn(dir, TABLET), "the new owner goes on");
    assertEquals(List.of(4L, 3L), ManifestLog.open(newOwner, dir, TABLET, IGNORE).current().checkpoints().stream()
        .map(CheckpointEdit::getLsn).toList());
  }

  @Test
  void anOldOwnersRollRacingTheNewOwnersLosesAtTheRename() throws IOException {
    Path dir = dir("race");
    ManifestLog first = ManifestLog.open(oldOwner, dir, TABLET, IGNORE);
    first.append(checkpoint(1));
    ManifestLog taken = ManifestLog.open(newOwner, dir, TABLET, IGNORE);
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
    TabletDescriptor parent = TestTables.whole(TestTables.USERS);
    TabletId left = new TabletId(parent.schema().id(), 7);
    Manifests old = new Manifests(oldOwner, root);
    old.log(parent.id(), IGNORE).append(checkpoint(1));
    old.log(parent.id(), IGNORE).current();
    // The new owner takes the parent over and splits it; the left daughter is opened and checkpointed.
    Manifests taken = new Manifests(newOwner, root);
    taken.log(parent.id(), IGNORE).append(checkpoint(2));
    taken.split(parent, "m".getBytes(StandardCharsets.UTF_8), 7, 8, IGNORE);
    new Manifests(newOwner, root).log(left, IGNORE).append(checkpoint(5));

    assertThrows(ManifestFencedException.class, () -> old.split(parent, "m".getBytes(StandardCharsets.UTF_8), 7, 8, IGNORE));
    assertEquals(5, newestLsn(taken.directory(left), left), "the daughter's manifest is as its server wrote it");
    assertTrue(ManifestLog.read(newOwner, taken.directory(parent.id()), parent.id()).retired());
  }
}
