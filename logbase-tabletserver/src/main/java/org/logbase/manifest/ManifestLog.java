package org.logbase.manifest;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.files.Leases;
import org.logbase.files.SharedPaths;
import org.logbase.rpc.ManifestEdit;
import org.logbase.tablet.TabletId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tablet's manifest: the files {@code MANIFEST-<n>} in the tablet's directory, the newest of
 * which holds its state. An edit is appended to the newest file as a frame {@code length:u32
 * crc32c:u32 bytes} and flushed to disk before {@link #append} returns; reading stops at the first
 * frame that is incomplete or fails its CRC (an append a crash cut short: it never happened). Every
 * {@value #ROLL_EDITS} edits, or when the file system cannot append, the state is written whole to
 * {@code MANIFEST-<n+1>} under a temporary name and renamed into place, then the older files are
 * deleted; a file is thus complete from the moment it can be seen.
 *
 * <p>Appends are serialised by this object; one process at a time may write a tablet's manifest
 * (the server that serves the tablet). A server that lost the tablet without noticing yet (paused
 * past its session while a failover gave the tablet to another) may still try to write, and is
 * fenced by the files themselves:
 * <ul>
 *   <li>a writer never appends to a file it did not write: its first edit after {@link #open}
 *       writes the state whole into a new file (the new owner's takeover checkpoint does this before
 *       the tablet serves), which deletes the files before it, so the old owner's next append finds
 *       its file gone (on HDFS, an append already under way fails on its next write);
 *   <li>a writer that finds a file newer than the newest it wrote or read has been superseded: it
 *       writes nothing and fails with {@link ManifestFencedException};
 *   <li>a rename into place never replaces a file: of two writers renaming to the same number,
 *       the second fails (HDFS refuses a rename onto an existing file; on a local file system the
 *       check before the rename leaves a window, see docs/architecture.md).
 * </ul>
 */
public final class ManifestLog {
  static final int ROLL_EDITS = 64;
  private static final Logger LOG = LoggerFactory.getLogger(ManifestLog.class);
  private static final Pattern NAME = Pattern.compile("MANIFEST-(\\d{20})");
  private static final String TMP_SUFFIX = ".tmp";
  /** A roll's file before its rename: {@code MANIFEST-<n>.<random>.tmp}. */
  private static final Pattern TMP = Pattern.compile("MANIFEST-(\\d{20})\\.[-0-9a-f]+\\.tmp");
  private static final int MAX_EDIT_BYTES = 64 << 20;

  private final FileSystem fs;
  private final Path dir;
  private TabletManifest state;
  private long fileNumber;
  private int editsInFile;
  /**
   * The next edit writes the state into a new file rather than appending: the newest file ends in a
   * torn edit (an edit appended after it would be unreadable), or this object did not write it (it
   * was read at {@link #open}: another process may still append to it).
   */
  private boolean mustRoll = true;
  /**
   * The state was read from an older file than the newest (which could not be read): a claim would
   * delete the newest, which an operator may yet repair. Edits still replace it (see {@link #open}).
   */
  private final boolean fellBack;

  private ManifestLog(FileSystem fs, Path dir, TabletManifest state, long fileNumber, int editsInFile,
      boolean fellBack) {
    this.fs = fs;
    this.dir = dir;
    this.state = state;
    this.fileNumber = fileNumber;
    this.editsInFile = editsInFile;
    this.fellBack = fellBack;
  }

  /**
   * The valid edits of a file, and whether bytes after them were damage (an edit whole but failing
   * its CRC) rather than an append cut short.
   */
  private record Read(List<ManifestEdit> edits, boolean damaged) {}

  /**
   * Reads the tablet's manifest in {@code dir} (empty if there is none yet).
   *
   * @param problems told of a torn last edit, or of a manifest file that could not be read (an older
   *     one is used then)
   */
  public static ManifestLog open(FileSystem fs, Path dir, TabletId tablet, Consumer<String> problems)
      throws IOException {
    List<Path> files = filesNewestFirst(fs, dir);
    for (Path p : files) {
      try {
        Read read = readEdits(fs, p, problems);
        return new ManifestLog(fs, dir, applied(tablet, read.edits()), number(files.get(0)), read.edits().size(),
            p != files.get(0));
      } catch (IOException | IllegalArgumentException e) {
        problems.accept("manifest " + p + " is unusable (" + e.getMessage() + "); trying an older one");
      }
    }
    if (!files.isEmpty()) {
      // Starting empty would forget where the tablet's data is: refuse instead.
      throw new IOException("no manifest of tablet " + tablet + " in " + dir + " can be read (" + files + ")");
    }
    return new ManifestLog(fs, dir, TabletManifest.empty(tablet), 0, 0, false);
  }

  /**
   * A tablet's manifest to be written anew with {@link #replace}, whatever its files hold now (a
   * split's daughter, after an interrupted split left one, readable or not): nothing is read, and
   * the next file is numbered above every file there, so a writer of those is fenced.
   */
  public static ManifestLog anew(FileSystem fs, Path dir, TabletId tablet) throws IOException {
    List<Path> files = filesNewestFirst(fs, dir);
    return new ManifestLog(fs, dir, TabletManifest.empty(tablet), files.isEmpty() ? 0 : number(files.get(0)), 0, false);
  }

  /**
   * Reads the tablet's manifest as it stands, for a process that does not write it (the log
   * collector): an append cut short is ignored, as {@link #open} does, but a damaged or unreadable
   * newest file is an error, never a fallback to an older state.
   *
   * @throws java.io.FileNotFoundException if the newest file went away while it was read (rolled
   *     by its writer): read again
   */
  public static TabletManifest read(FileSystem fs, Path dir, TabletId tablet) throws IOException {
    List<Path> files = filesNewestFirst(fs, dir);
    if (files.isEmpty()) {
      return TabletManifest.empty(tablet);
    }
    Read read = readEdits(fs, files.get(0), problem -> { });
    if (read.damaged()) {
      throw new IOException("manifest " + files.get(0) + " is damaged (an edit fails its CRC32C)");
    }
    return applied(tablet, read.edits());
  }

  private static TabletManifest applied(TabletId tablet, List<ManifestEdit> edits) {
    TabletManifest m = TabletManifest.empty(tablet);
    for (ManifestEdit e : edits) {
      m = m.apply(e);
    }
    return m;
  }

  /** The state now. */
  public synchronized TabletManifest current() {
    return state;
  }

  /**
   * Throws {@link ManifestFencedException} if another process has written the manifest since this
   * object read or wrote it. A check, not a fence: a writer paused right after it passes acts all the
   * same; the edit that follows is fenced.
   */
  public synchronized void checkNotSuperseded() throws IOException {
    List<Path> existing = filesNewestFirst(fs, dir);
    if (!existing.isEmpty() && number(existing.get(0)) > fileNumber) {
      throw superseded(existing.get(0));
    }
  }

  /**
   * Makes this object the manifest's writer before it acts on what it read: writes the state whole
   * into a new file now (deleting the files before it), so that an edit another process appends
   * from here on goes to a file nobody reads, and its roll is refused. No-op for a manifest that
   * does not exist yet, whose newest file this object wrote, or whose newest file could not be read
   * (left for an operator to repair; the first edit replaces it all the same).
   *
   * @throws ManifestFencedException if another process wrote the manifest since it was read
   */
  public synchronized void claim() throws IOException {
    if (fileNumber > 0 && mustRoll && !fellBack) {
      roll(state);
    }
  }

  /**
   * Replaces the state with the one {@code edits} make from nothing, in a new file: for a manifest
   * written anew ({@link #anew}), so that a writer of the old one is fenced as after {@link #claim}
   * rather than finding a new file of the same number.
   */
  public synchronized TabletManifest replace(List<ManifestEdit> edits) throws IOException {
    TabletManifest next = applied(state.tablet(), edits);
    roll(next);
    state = next;
    return next;
  }

  /** Whether a manifest file exists for the tablet. */
  public synchronized boolean exists() {
    return fileNumber > 0;
  }

  /**
   * Makes an edit durable (flushed to disk), then applies it to the published state.
   *
   * @throws ManifestFencedException if another process has written the manifest since this object
   *     read or wrote it (this server no longer owns the tablet): nothing was written. An append
   *     that failed part-way and was then fenced throws a plain IOException with the fence as its
   *     cause instead: the edit may have reached the file before another server read it.
   */
  public synchronized TabletManifest append(ManifestEdit edit) throws IOException {
    return append(List.of(edit));
  }

  /**
   * Makes edits durable together (one write: all or, after a crash, a prefix), then applies them.
   *
   * @throws ManifestFencedException as {@link #append(ManifestEdit)}
   */
  public synchronized TabletManifest append(List<ManifestEdit> edits) throws IOException {
    TabletManifest next = state;
    List<byte[]> frames = new ArrayList<>(edits.size());
    for (ManifestEdit edit : edits) {
      next = next.apply(edit);
      frames.add(frame(edit));
    }
    if (fileNumber == 0 || editsInFile >= ROLL_EDITS || mustRoll) {
      roll(next);
    } else {
      boolean opened = false; // once the file is open for the append, part of the edit may reach it
      try {
        mustRoll = true; // until the edit is whole on disk: should this fail, the next edit starts a new file
        FSDataOutputStream out = fs.append(file(fileNumber));
        opened = true;
        writeDurably(out, frames);
        mustRoll = false;
        editsInFile += frames.size();
      } catch (IOException | UnsupportedOperationException e) {
        // Whatever part of the frame reached the file fails its CRC and is ignored by readers;
        // the rewritten file below does not contain it.
        LOG.info("appending to {} failed ({}); writing the manifest anew", file(fileNumber), e.toString());
        try {
          roll(next);
        } catch (ManifestFencedException fenced) {
          if (!opened) {
            throw fenced; // the file could not even be opened (gone: another server claimed it)
          }
          // Refused, but not "nothing written": the append may have reached the file whole (its
          // close failed, say, as another server took the file over), and that server may have
          // read the edit from it and now names what the edit names.
          IOException ambiguous = new IOException("appending to " + file(fileNumber) + " failed, and another"
              + " server has written the manifest since; the edit may have reached it", fenced);
          ambiguous.addSuppressed(e);
          throw ambiguous;
        }
      }
    }
    state = next;
    return next;
  }

  private void roll(TabletManifest next) throws IOException {
    checkNotSuperseded();
    long n = fileNumber + 1;
    Path target = file(n);
    Path tmp = new Path(dir, target.getName() + "." + UUID.randomUUID() + TMP_SUFFIX);
    fs.mkdirs(dir);
    List<ManifestEdit> edits = next.asEdits();
    List<byte[]> frames = new ArrayList<>(edits.size());
    edits.forEach(e -> frames.add(frame(e)));
    writeDurably(fs.create(tmp, false), frames);
    // HDFS refuses a rename onto an existing file by itself; the check covers file systems that
    // would replace it (there, a rename racing another writer's can still win: a window, not a fence).
    if (fs.exists(target) || !fs.rename(tmp, target)) {
      deleteQuietly(tmp);
      if (fs.exists(target)) {
        throw superseded(target);
      }
      throw new IOException("could not rename " + tmp + " to " + target);
    }
    fileNumber = n;
    editsInFile = edits.size();
    mustRoll = false;
    for (FileStatus f : SharedPaths.list(fs, dir)) {
      Path old = f.getPath();
      Matcher tmpName = TMP.matcher(old.getName());
      // Older files, and the temporary files of rolls that died or were fenced (a writer that still
      // writes one fails at its rename: this number is taken).
      if ((NAME.matcher(old.getName()).matches() && number(old) < n)
          || (tmpName.matches() && Long.parseLong(tmpName.group(1)) <= n)) {
        deleteQuietly(old);
      }
    }
  }

  private ManifestFencedException superseded(Path newer) {
    return new ManifestFencedException("manifest " + newer + " was written by another server after this one last"
        + " read or wrote " + file(fileNumber) + ": the tablet is served elsewhere now, and this server's edit was"
        + " not written");
  }

  private void deleteQuietly(Path p) {
    try {
      fs.delete(p, false);
    } catch (IOException e) {
      // Readers take the newest complete file; one left behind is only clutter.
      LOG.warn("could not delete {}", p, e);
    }
  }

  /**
   * Writes, syncs and closes. Not try-with-resources: an HDFS stream whose sync failed throws the
   * same exception again from close, and adding an exception to itself as suppressed throws
   * IllegalArgumentException instead of the I/O failure.
   */
  private static void writeDurably(FSDataOutputStream out, List<byte[]> frames) throws IOException {
    try {
      for (byte[] f : frames) {
        out.write(f);
      }
      out.hsync();
    } catch (IOException e) {
      try {
        out.close();
      } catch (IOException closing) {
        if (closing != e) {
          e.addSuppressed(closing);
        }
      }
      throw e;
    }
    out.close();
  }

  private Path file(long n) {
    return new Path(dir, String.format("MANIFEST-%020d", n));
  }

  static byte[] frame(ManifestEdit e) {
    byte[] body = e.toByteArray();
    CRC32C crc = new CRC32C();
    crc.update(body);
    return ByteBuffer.allocate(8 + body.length).putInt(body.length).putInt((int) crc.getValue()).put(body).array();
  }

  private static Read readEdits(FileSystem fs, Path p, Consumer<String> problems) throws IOException {
    byte[] all;
    try (InputStream in = Leases.open(fs, p)) {
      all = in.readAllBytes();
    }
    ByteBuffer b = ByteBuffer.wrap(all);
    List<ManifestEdit> out = new ArrayList<>();
    boolean damaged = false;
    while (b.remaining() > 0) {
      int at = b.position();
      if (b.remaining() < 8) {
        problems.accept("manifest " + p + ": incomplete edit at byte " + at + " ignored (a cut-short append)");
        break;
      }
      int length = b.getInt();
      int stored = b.getInt();
      if (length < 0 || length > MAX_EDIT_BYTES || length > b.remaining()) {
        problems.accept("manifest " + p + ": incomplete edit at byte " + at + " ignored (a cut-short append)");
        break;
      }
      byte[] body = new byte[length];
      b.get(body);
      CRC32C crc = new CRC32C();
      crc.update(body);
      if ((int) crc.getValue() != stored) {
        problems.accept("manifest " + p + ": edit at byte " + at + " fails its CRC32C; it and what follows are ignored");
        damaged = true;
        break;
      }
      try {
        out.add(ManifestEdit.parseFrom(body));
      } catch (InvalidProtocolBufferException e) {
        throw new IOException("manifest " + p + " holds an edit that does not parse at byte " + at, e);
      }
    }
    if (out.isEmpty()) {
      throw new IOException("manifest " + p + " holds no edit");
    }
    return new Read(out, damaged);
  }

  private static List<Path> filesNewestFirst(FileSystem fs, Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    for (FileStatus f : SharedPaths.list(fs, dir)) {
      if (NAME.matcher(f.getPath().getName()).matches()) {
        out.add(f.getPath());
      }
    }
    out.sort(Comparator.comparingLong(ManifestLog::number).reversed());
    return out;
  }

  private static long number(Path p) {
    Matcher m = NAME.matcher(p.getName());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a manifest file: " + p);
    }
    return Long.parseLong(m.group(1));
  }
}
