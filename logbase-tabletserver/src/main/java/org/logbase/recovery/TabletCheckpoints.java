package org.logbase.recovery;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.files.FileIds;
import org.logbase.files.FileRegistry;
import org.logbase.files.SharedPaths;
import org.logbase.index.BLinkTree;
import org.logbase.log.LogPosition;
import org.logbase.log.SegmentFiles;
import org.logbase.manifest.ManifestFencedException;
import org.logbase.manifest.ManifestLog;
import org.logbase.manifest.Manifests;
import org.logbase.manifest.TabletManifest;
import org.logbase.rpc.CheckpointEdit;
import org.logbase.rpc.FileRef;
import org.logbase.rpc.GroupCheckpoint;
import org.logbase.rpc.ManifestEdit;
import org.logbase.rpc.SortedRef;
import org.logbase.sorted.SortedFormats;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.IndexApplier.Watermark;
import org.logbase.tablet.SortedSegment;
import org.logbase.tablet.SortedSegments;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TabletId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tablet's checkpoint is its manifest plus an index file per column group, all in the tablet's
 * directory of the shared file system, so any server can load it. Writing one: the index files of
 * the groups that changed (an idle group keeps its file), then one manifest edit naming them, the
 * data files their entries point into and the log position the tail continues from; files no kept
 * checkpoint uses are deleted after. Loading one: the newest checkpoint whose index files are intact
 * (else the older one), its data files made known to the {@link FileRegistry}, and where replay
 * must start, in whichever server's log that is.
 */
public final class TabletCheckpoints {
  private static final Logger LOG = LoggerFactory.getLogger(TabletCheckpoints.class);

  private final FileSystem fs;
  private final Manifests manifests;
  private final IndexFiles indexFiles;
  private final FileRegistry files;
  private final FileIds ids;
  private final Path ownLog;
  private final SortedSegments segments;
  private final ConcurrentHashMap<TabletId, Object> writing = new ConcurrentHashMap<>();

  /**
   * Where a tablet's rebuild starts: its indexes as loaded (empty without a checkpoint) and the log
   * (directory) and position its tail is replayed from.
   *
   * @param lsn every record up to this LSN of {@code logDir} is in the indexes
   */
  public record Start(TabletDescriptor tablet, GroupIndex[] groups, Path logDir, LogPosition from, long lsn,
      long maxTimestamp, int checkpointsLoaded, long entries) {}

  /**
   * @param ownLog this server's log: the tail of every checkpoint it writes continues there
   * @param segments where the sorted segments checkpoints name are opened
   */
  public TabletCheckpoints(FileSystem fs, Manifests manifests, FileRegistry files, FileIds ids, Path ownLog,
      SortedSegments segments) {
    this.fs = fs;
    this.segments = segments;
    this.manifests = manifests;
    this.indexFiles = new IndexFiles(fs);
    this.files = files;
    this.ids = ids;
    this.ownLog = ownLog;
  }

  public Path ownLog() {
    return ownLog;
  }

  /** The sorted segments of the tablets this server opened. */
  public SortedSegments segments() {
    return segments;
  }

  /** The tablet's directory in the shared file system: its manifest, index files and sorted segments. */
  public Path directory(TabletDescriptor d) {
    return manifests.directory(d.id());
  }

  /**
   * Deletes the files a crash (or a writer fenced off meanwhile) left half-written in the tablet's
   * directory: index files and sorted segments still under their temporary names, and a
   * compaction's temporary sorted runs. Nothing names
   * them, and nothing will: whoever wrote them no longer serves the tablet, or is this server before
   * it opened the tablet again. A writer still at it finds its file gone and fails.
   */
  private void removeUnfinishedFiles(TabletDescriptor d) throws IOException {
    List<String> removed = new ArrayList<>();
    for (FileStatus f : SharedPaths.list(fs, manifests.directory(d.id()))) {
      String name = f.getPath().getName();
      if ((IndexFiles.isUnfinished(name) || SortedFormats.isUnfinished(name) || SortedFormats.isRun(name))
          && fs.delete(f.getPath(), false)) {
        removed.add(name + " (" + f.getLen() + " bytes)");
      }
    }
    if (!removed.isEmpty()) {
      LOG.info("removed {} unfinished files of {} (left by a crash): {}", removed.size(), d, removed);
    }
  }

  /** Whether a start's tail is in this server's log. */
  public boolean isOwnLog(Path logDir) {
    return SharedPaths.store(fs, logDir).equals(SharedPaths.store(fs, ownLog));
  }

  /**
   * Loads a tablet's newest usable checkpoint, reading its manifest anew (another server may have
   * written it since this one last served the tablet). An older checkpoint stands in for a damaged
   * newest one only if its tail is in the same log (replaying that log from the older position
   * restores everything); with none usable, the tablet starts empty from the start of this server's
   * log only if every checkpoint it had continued in this log, named no sorted segment, and this log
   * has not been collected since (or the tablet never had a real checkpoint), as nothing of it can be
   * elsewhere.
   *
   * @param useCheckpoints false starts from nothing (benchmarks compare the two)
   * @param problems told about every checkpoint that was skipped, and why
   * @throws IOException if the tablet was split (its daughters are to be opened instead), or its
   *     history cannot be rebuilt from what is readable now
   */
  public Start load(TabletDescriptor d, boolean useCheckpoints, Consumer<String> problems) throws IOException {
    manifests.forget(d.id());
    ManifestLog log = manifests.log(d.id(), problems);
    removeUnfinishedFiles(d);
    TabletManifest m = log.current();
    if (m.retired()) {
      throw new IOException("tablet " + d + " was split into tablets " + m.daughters() + "; open those instead");
    }
    CheckpointEdit newest = m.newest();
    if (newest != null && !newest.getLogDir().equals(SharedPaths.store(fs, ownLog))) {
      // Taken over from another server, which may not know yet (paused past its session): from
      // here on its manifest edits are refused or go where nobody reads them (ManifestLog).
      log.claim();
    }
    boolean segmentUnreadable = false;
    if (useCheckpoints && newest != null) {
      for (CheckpointEdit c : m.checkpoints()) {
        if (!c.getLogDir().equals(newest.getLogDir())) {
          break; // its tail is in another log: newer records of the tablet would be missed
        }
        try {
          Start s = start(d, c);
          if (c != newest) {
            // The newest checkpoint's files are damaged: the next checkpoint must not reuse them.
            for (GroupIndex gi : s.groups()) {
              if (gi != null) {
                gi.mustCheckpoint();
              }
            }
          }
          return s;
        } catch (SegmentUnreadable e) {
          segmentUnreadable = true;
          problems.accept("checkpoint of " + d + " at LSN " + c.getLsn() + " is unusable (" + e.getMessage() + ")");
        } catch (IOException e) {
          problems.accept("checkpoint of " + d + " at LSN " + c.getLsn() + " is unusable (" + e.getMessage() + ")");
        }
      }
    }
    if (segmentUnreadable) {
      // Its compacted history is in that segment only (the log behind it may be another server's,
      // or gone to compaction's retention): starting from the log would serve it with part missing.
      throw new IOException("tablet " + d + " cannot be opened: a sorted segment its checkpoints name cannot be"
          + " read (" + String.join("; ", describe(m)) + "); repair or restore the file, then open it again");
    }
    String own = SharedPaths.store(fs, ownLog);
    String why = useCheckpoints ? "no usable checkpoint" : "starting without a checkpoint";
    boolean everCheckpointed = false;
    for (CheckpointEdit c : m.checkpoints()) {
      if (!c.getLogDir().equals(own)) {
        throw new IOException("tablet " + d + " cannot be opened: " + why + ", and its history continued in "
            + c.getLogDir() + ", not in this server's log (" + String.join("; ", describe(m)) + ")");
      }
      for (GroupCheckpoint g : c.getGroupsList()) {
        everCheckpointed = true;
        if (g.getSortedCount() > 0) {
          throw new IOException("tablet " + d + " cannot be opened: " + why + ", and part of its history is in"
              + " sorted segments only its checkpoints name (" + String.join("; ", describe(m))
              + "); repair or restore their index files, then open it again");
        }
      }
    }
    if (everCheckpointed && SegmentFiles.isCollected(fs, ownLog)) {
      // Segments its checkpoints covered may be gone: a replay from the start would serve it with part missing.
      throw new IOException("tablet " + d + " cannot be opened: " + why + ", and segments of this server's log"
          + " have been deleted as no checkpoint needed them, so a replay from its start would miss part of it ("
          + String.join("; ", describe(m)) + "); repair or restore the index files, then open it again");
    }
    return new Start(d, groups(d, 0), ownLog, LogPosition.START, 0, 0, 0, 0);
  }

  private static List<String> describe(TabletManifest m) {
    return m.checkpoints().stream().map(c -> "checkpoint at LSN " + c.getLsn() + " of " + c.getLogDir()).toList();
  }

  private Start start(TabletDescriptor d, CheckpointEdit c) throws IOException {
    Map<Integer, GroupCheckpoint> byGroup = new HashMap<>();
    c.getGroupsList().forEach(g -> byGroup.put(g.getColumnGroup(), g));
    // A daughter loads its parent's index files: it keeps the keys of its own range.
    Predicate<byte[]> keep = d.startKey() == null && d.endKey() == null ? null : d::contains;
    GroupIndex[] groups = groups(d, c.getLsn());
    int loaded = 0;
    long entries = 0;
    for (ColumnGroup g : d.schema().columnGroups()) {
      GroupCheckpoint gc = byGroup.get(g.id());
      if (gc != null) {
        // A group missing from the checkpoint was added after it: it has nothing before the tail.
        List<SortedSegment> sorted = new ArrayList<>();
        for (SortedRef ref : gc.getSortedList()) {
          try {
            sorted.add(segments.open(ref));
          } catch (IOException e) {
            throw new SegmentUnreadable("sorted segment " + ref.getPath() + ": " + e.getMessage(), e);
          }
        }
        groups[g.id()] = new GroupIndex(d, g, indexFiles.load(gc, d.schema().id(), keep), sorted, gc.getGcHorizon(),
            c.getLsn());
        loaded++;
        entries += gc.getEntries();
      }
    }
    for (FileRef f : c.getFilesList()) {
      files.register(f.getId(), SharedPaths.resolve(fs, f.getPath()));
    }
    return new Start(d, groups, SharedPaths.resolve(fs, c.getLogDir()),
        new LogPosition(c.getPositionFile(), c.getPositionOffset()), c.getLsn(), c.getMaxTimestamp(), loaded, entries);
  }

  /** Empty indexes for every column group of the tablet, covering nothing before {@code lsn}. */
  public static GroupIndex[] groups(TabletDescriptor d, long lsn) {
    int maxId = d.schema().columnGroups().stream().mapToInt(ColumnGroup::id).max().orElse(0);
    GroupIndex[] groups = new GroupIndex[maxId + 1];
    for (ColumnGroup g : d.schema().columnGroups()) {
      groups[g.id()] = new GroupIndex(d, g, BLinkTree.builder().build(), lsn);
    }
    return groups;
  }

  /**
   * Whether the tablet has a checkpoint with index files yet (the origin edit of {@link
   * #recordOrigin} names a log but no indexes: the tablet still wants its first real checkpoint, so
   * that a restart or a takeover does not replay its log from the start).
   */
  public boolean hasCheckpoint(TabletDescriptor d) throws IOException {
    CheckpointEdit newest = manifests.log(d.id(), LOG::warn).current().newest();
    return newest != null && newest.getGroupsCount() > 0;
  }

  /**
   * Splits a tablet that is no longer served (closed and checkpointed) into two daughters by its
   * manifest (see {@link Manifests#split}). Done again after it was done, with the same daughters, it
   * changes nothing and answers the key it split at, so a master that lost the answer can ask again.
   *
   * @param key where the right daughter starts
   * @return the key the tablet was split at
   */
  public byte[] split(TabletDescriptor parent, byte[] key, int leftId, int rightId) throws IOException {
    TabletManifest m = manifests.log(parent.id(), LOG::warn).current();
    if (m.retired()) {
      if (!m.daughters().equals(List.of(leftId, rightId))) {
        throw new IllegalStateException("tablet " + parent + " was split already, into " + m.daughters());
      }
      TabletManifest left = manifests.log(new TabletId(parent.schema().id(), leftId), LOG::warn).current();
      return left.range().getEndKey().toByteArray();
    }
    manifests.split(parent, key, leftId, rightId, LOG::warn);
    return key;
  }

  /** Whether the tablet was split (its manifest is retired). */
  public boolean isSplit(TabletDescriptor d) throws IOException {
    return manifests.log(d.id(), LOG::warn).current().retired();
  }

  /**
   * Records, for a tablet that has no checkpoint yet, that its history is in this server's log from
   * the beginning: a checkpoint with no index files, replayed from the log's start. Written before
   * the tablet takes its first write here, so whoever opens it next (this server after a restart, or
   * another after this one died) knows which log holds its records, even if this server never lived
   * long enough for a real checkpoint. No-op for a tablet with a checkpoint.
   *
   * @return whether an edit was written
   */
  public boolean recordOrigin(TabletDescriptor d) throws IOException {
    ManifestLog log = manifests.log(d.id(), LOG::warn);
    TabletManifest m = log.current();
    if (m.newest() != null || m.retired()) {
      return false;
    }
    List<ManifestEdit> edits = new ArrayList<>();
    if (m.range() == null) {
      edits.add(ManifestEdit.newBuilder().setRange(TabletManifest.range(d.startKey(), d.endKey())).build());
    }
    edits.add(ManifestEdit.newBuilder().setCheckpoint(CheckpointEdit.newBuilder().setLsn(0)
        .setLogDir(SharedPaths.store(fs, ownLog)).setPositionFile(LogPosition.START.segment())
        .setPositionOffset(LogPosition.START.offset())).build());
    log.append(edits);
    return true;
  }

  /**
   * Checkpoints a tablet's indexes as of {@code wm}, a watermark of this server's log taken before
   * this call: entries applied after it may be in the files too; replay applies them again,
   * idempotently.
   *
   * @return the checkpoint now newest (the previous one if nothing changed since)
   */
  public CheckpointEdit write(TabletDescriptor d, GroupIndex[] groups, Watermark wm) throws IOException {
    // One checkpoint of a tablet at a time; different tablets' go on in parallel (a takeover's do).
    synchronized (writing.computeIfAbsent(d.id(), id -> new Object())) {
      return writeLocked(d, groups, wm);
    }
  }

  private CheckpointEdit writeLocked(TabletDescriptor d, GroupIndex[] groups, Watermark wm) throws IOException {
    ManifestLog log = manifests.log(d.id(), LOG::warn);
    TabletManifest m = log.current();
    if (m.retired()) {
      throw new IllegalStateException("tablet " + d + " was split; it has no checkpoints of its own any more");
    }
    CheckpointEdit prev = m.newest();
    Map<Integer, GroupCheckpoint> before = new HashMap<>();
    Map<Long, String> knownFiles = new HashMap<>();
    if (prev != null) {
      prev.getGroupsList().forEach(g -> before.put(g.getColumnGroup(), g));
      prev.getFilesList().forEach(f -> knownFiles.put(f.getId(), f.getPath()));
    }
    String ownLogDir = SharedPaths.store(fs, ownLog);
    CheckpointEdit.Builder b = CheckpointEdit.newBuilder().setLsn(wm.lsn()).setLogDir(ownLogDir)
        .setPositionFile(wm.position().segment()).setPositionOffset(wm.position().offset());
    Path dir = manifests.directory(d.id());
    long[] covered = new long[groups.length];
    boolean rewrote = false;
    Set<Long> fileIds = new TreeSet<>();
    long maxTs = 0;
    List<String> written = new ArrayList<>(); // this checkpoint's index files
    boolean appending = false;
    CheckpointEdit c;
    TabletManifest now;
    try {
      for (GroupIndex gi : groups) {
        if (gi == null) {
          continue;
        }
        // Read after the caller took the watermark: zero means nothing reached this index since the
        // last checkpoint began, so that checkpoint's index file is complete up to the watermark too.
        long updates = gi.updatesSinceCheckpoint();
        GroupCheckpoint g = before.get(gi.group().id());
        if (updates > 0 || g == null || !sameSegments(g, gi)) {
          g = withSegments(indexFiles.write(gi, dir, ids.next(), wm.lsn()), gi);
          written.add(g.getIndexPath());
          rewrote = true;
        }
        covered[gi.group().id()] = updates;
        b.addGroups(g);
        fileIds.addAll(g.getFileIdsList());
        maxTs = Math.max(maxTs, g.getMaxTimestamp());
      }
      // Nothing new since the newest checkpoint: it stands, unless the one kept behind it as the
      // fallback is another (an older position, a compaction's replaced files): written once more, the
      // newest pushes that one out, and the log segments and sorted segments only it named can go.
      boolean fallbackIsNewest = m.checkpoints().size() < 2 || m.checkpoints().get(1).equals(prev);
      if (!rewrote && prev != null && prev.getLsn() >= wm.lsn() && prev.getLogDir().equals(ownLogDir)
          && fallbackIsNewest) {
        return prev;
      }
      for (long id : fileIds) {
        String path = files.knows(id) ? SharedPaths.store(fs, files.path(id)) : knownFiles.get(id);
        if (path == null) {
          throw new IOException("index of " + d + " points into data file " + id + ", which this server does not know");
        }
        b.addFiles(FileRef.newBuilder().setId(id).setPath(path));
      }
      c = b.setMaxTimestamp(maxTs).build();
      List<ManifestEdit> edits = new ArrayList<>();
      if (m.range() == null) {
        edits.add(ManifestEdit.newBuilder().setRange(TabletManifest.range(d.startKey(), d.endKey())).build());
      }
      edits.add(ManifestEdit.newBuilder().setCheckpoint(c).build());
      appending = true;
      now = log.append(edits);
    } catch (IOException | RuntimeException e) {
      // Failed before the append, or fenced (another server owns the tablet now; nothing was
      // appended): no manifest names this checkpoint's index files, which would otherwise stay in
      // the directory, one more each time the checkpointer tried again. An append that failed
      // otherwise may have reached the manifest: its files stay.
      if (!appending || e instanceof ManifestFencedException) {
        deleteAfter(written, e);
      }
      throw e;
    }
    for (GroupIndex gi : groups) {
      if (gi != null) {
        gi.checkpointed(covered[gi.group().id()]);
      }
    }
    deleteUnused(m.indexPaths(), now.indexPaths(), dir);
    deleteUnusedSegments(m.sortedPaths(), now.sortedPaths(), dir);
    if (rewrote) {
      LOG.info("checkpoint of {} at LSN {}: replay from file {} offset {}", d, wm.lsn(), wm.position().segment(),
          wm.position().offset());
    }
    return c;
  }

  private static boolean sameSegments(GroupCheckpoint g, GroupIndex gi) {
    List<Long> named = g.getSortedList().stream().map(SortedRef::getFileId).toList();
    return named.equals(gi.segments().stream().map(SortedSegment::fileId).toList()) && g.getGcHorizon() == gi.gcHorizon();
  }

  /** The index file's entry with the group's sorted segments (newest first) and GC horizon. */
  private static GroupCheckpoint withSegments(GroupCheckpoint g, GroupIndex gi) {
    GroupCheckpoint.Builder b = g.toBuilder().clearSorted().setGcHorizon(gi.gcHorizon());
    for (SortedSegment s : gi.segments()) {
      b.addSorted(SortedRef.newBuilder().setFileId(s.fileId()).setPath(s.storedPath())
          .setEntries(s.reader().stats().entryCount()).setBytes(s.reader().stats().fileBytes()));
    }
    return b.build();
  }

  /** Deletes index files a failed checkpoint wrote; a failure to is added to {@code failure}. */
  private void deleteAfter(List<String> written, Throwable failure) {
    for (String p : written) {
      try {
        indexFiles.delete(p);
      } catch (IOException | RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }

  /** Deletes this tablet's own index files that no kept checkpoint uses (a parent's are left alone). */
  private void deleteUnused(Set<String> before, Set<String> now, Path dir) throws IOException {
    String own = SharedPaths.store(fs, dir) + "/";
    for (String p : before) {
      if (!now.contains(p) && p.startsWith(own)) {
        indexFiles.delete(p);
      }
    }
  }

  /**
   * Retires this tablet's own sorted segments that no kept checkpoint names any more (a parent's,
   * which daughters share, are left alone), and deletes the retired segments no read in progress
   * can use ({@link SortedSegments#deleteRetired}). A segment a compaction replaced is still named by
   * the checkpoint kept as a fallback, so it is retired one checkpoint later; a scan that began on it
   * keeps it until the scan ends. A deletion that fails does not fail the checkpoint: the segment
   * stays retired and the checkpointer's next check tries again. Files left by a crash in between
   * are not deleted (garbage until a sweep exists).
   */
  private void deleteUnusedSegments(Set<String> before, Set<String> now, Path dir) throws IOException {
    String own = SharedPaths.store(fs, dir) + "/";
    for (String p : before) {
      if (!now.contains(p) && p.startsWith(own)) {
        segments.retire(p);
      }
    }
    try {
      deleteRetiredSegments();
    } catch (IOException | RuntimeException e) {
      // The checkpoint is written; the checkpointer's next check (a second from now) tries again.
      LOG.warn("deleting sorted segments no kept checkpoint names failed; will retry", e);
    }
  }

  /** Deletes the retired sorted segments that no scan in progress can read ({@link SortedSegments#deleteRetired}). */
  public void deleteRetiredSegments() throws IOException {
    List<String> deleted = segments.deleteRetired();
    if (!deleted.isEmpty()) {
      LOG.info("deleted {} sorted segments that no kept checkpoint names and no scan reads: {}", deleted.size(),
          deleted);
    }
  }

  /** A sorted segment a checkpoint names could not be opened (damaged, missing, unreachable). */
  private static final class SegmentUnreadable extends IOException {
    private static final long serialVersionUID = 1L;

    SegmentUnreadable(String message, IOException cause) {
      super(message, cause);
    }
  }

  /** Forgets the manifest of a tablet this server stops serving. */
  public void forget(TabletDescriptor d) {
    manifests.forget(d.id());
  }

  /** The tablet's manifest as this server knows it. */
  public TabletManifest manifest(TabletDescriptor d) throws IOException {
    return manifests.log(d.id(), LOG::warn).current();
  }

}
