package org.logbase.manifest;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Bytes;
import org.logbase.files.SharedPaths;
import org.logbase.rpc.ManifestEdit;
import org.logbase.rpc.RetiredEdit;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TabletId;

/**
 * The manifests of all tablets, one directory each under a root in the shared file system ({@code
 * <shared>/tablets/t<table>-<tablet>/}); index files of the tablet's checkpoints go there too.
 */
public final class Manifests {
  private static final Pattern DIRECTORY = Pattern.compile("t(\\d+)-(\\d+)");

  private final FileSystem fs;
  private final Path root;
  private final ConcurrentHashMap<TabletId, ManifestLog> open = new ConcurrentHashMap<>();

  public Manifests(FileSystem fs, Path root) {
    this.fs = fs;
    this.root = root;
  }

  /** The tablet's directory: its manifest and its index files. */
  public Path directory(TabletId tablet) {
    return new Path(root, tablet.toString());
  }

  /** The tablet's manifest, read from the file system the first time (and again after {@link #forget}). */
  public ManifestLog log(TabletId tablet, Consumer<String> problems) throws IOException {
    ManifestLog m = open.get(tablet);
    if (m != null) {
      return m;
    }
    ManifestLog read = ManifestLog.open(fs, directory(tablet), tablet, problems);
    ManifestLog raced = open.putIfAbsent(tablet, read);
    return raced != null ? raced : read;
  }

  /**
   * Every tablet's manifest as it stands in the file system now, whoever writes it, read without
   * caching (see {@link ManifestLog#read}). A manifest rolled while it was read is read again; a
   * tablet directory deleted meanwhile (a dropped table, an interrupted split's daughter written
   * anew) is read as it is found.
   *
   * @throws IOException if a manifest is damaged or cannot be read
   */
  public List<TabletManifest> readAll() throws IOException {
    List<TabletManifest> out = new ArrayList<>();
    for (FileStatus f : SharedPaths.list(fs, root)) {
      Matcher m = DIRECTORY.matcher(f.getPath().getName());
      if (!f.isDirectory() || !m.matches()) {
        continue;
      }
      TabletId tablet = new TabletId(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
      TabletManifest read;
      try {
        read = ManifestLog.read(fs, f.getPath(), tablet);
      } catch (FileNotFoundException rolled) {
        read = ManifestLog.read(fs, f.getPath(), tablet);
      }
      out.add(read);
    }
    return out;
  }

  /** Drops the cached manifest of a tablet this server no longer serves (another may write it now). */
  public void forget(TabletId tablet) {
    open.remove(tablet);
  }

  /**
   * Splits a tablet that no server serves now at {@code splitKey}: each daughter gets a manifest with
   * its half of the range and the parent's checkpoints (whose index entries it filters by its range
   * when it loads them; replay routes the parent's log records by key), then the parent is marked
   * retired. A crash in between leaves the parent live and daughters' manifests that nobody has
   * opened (daughters are assigned only once their parent is retired): the split can be done again,
   * with the same ids or others; the daughters' manifests are then written anew.
   */
  public void split(TabletDescriptor parent, byte[] splitKey, int leftId, int rightId, Consumer<String> problems)
      throws IOException {
    if (!parent.contains(splitKey) || (parent.startKey() != null && Bytes.compare(parent.startKey(), splitKey) == 0)) {
      throw new IllegalArgumentException("split key " + Bytes.toStringBinary(splitKey) + " is not inside " + parent);
    }
    ManifestLog p = log(parent.id(), problems);
    TabletManifest pm = p.current();
    if (pm.retired()) {
      throw new IllegalStateException("tablet " + parent + " was split already, into " + pm.daughters());
    }
    if (pm.newest() == null) {
      // Without one, the daughters would not know which log holds the parent's data.
      throw new IllegalStateException("tablet " + parent + " has no checkpoint yet: checkpoint it before splitting");
    }
    // Before the daughters' directories are written anew: a server that lost the parent to another
    // (which may have split it, its daughters served since) must not touch them. A check only (see
    // docs/architecture.md, "Check, then act"); the parent's retirement below is fenced.
    p.checkNotSuperseded();
    daughter(parent, leftId, parent.startKey(), splitKey, pm);
    daughter(parent, rightId, splitKey, parent.endKey(), pm);
    p.append(ManifestEdit.newBuilder().setRetired(RetiredEdit.newBuilder().addDaughters(leftId).addDaughters(rightId))
        .build());
  }

  private void daughter(TabletDescriptor parent, int id, byte[] start, byte[] end, TabletManifest pm)
      throws IOException {
    TabletId d = new TabletId(parent.schema().id(), id);
    forget(d);
    // A manifest here was left by a split of this parent cut short before the parent was retired
    // (nobody opened it): not read, but replaced by a newer file, so that a writer of it is fenced.
    ManifestLog m = ManifestLog.anew(fs, directory(d), d);
    List<ManifestEdit> edits = new ArrayList<>();
    edits.add(ManifestEdit.newBuilder().setRange(TabletManifest.range(start, end)).build());
    for (int i = pm.checkpoints().size() - 1; i >= 0; i--) {
      edits.add(ManifestEdit.newBuilder().setCheckpoint(pm.checkpoints().get(i)).build());
    }
    m.replace(edits);
    open.put(d, m);
  }
}
