package org.logbase.manifest;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.logbase.rpc.CheckpointEdit;
import org.logbase.rpc.GroupCheckpoint;
import org.logbase.rpc.ManifestEdit;
import org.logbase.rpc.RangeEdit;
import org.logbase.rpc.RetiredEdit;
import org.logbase.tablet.TabletId;

/**
 * What a tablet's manifest says now: its key range (null until one is recorded), its newest
 * checkpoints (newest first; older ones are kept as fallbacks should the newest index files be
 * damaged), and the daughters it was split into (empty while it is live). Immutable: an edit gives a
 * new one.
 */
public record TabletManifest(TabletId tablet, RangeEdit range, List<CheckpointEdit> checkpoints, List<Integer> daughters) {
  /** How many checkpoints are kept: the newest and one to fall back to. */
  public static final int KEEP = 2;

  public TabletManifest {
    checkpoints = List.copyOf(checkpoints);
    daughters = List.copyOf(daughters);
  }

  public static TabletManifest empty(TabletId tablet) {
    return new TabletManifest(tablet, null, List.of(), List.of());
  }

  /** The state after an edit. */
  public TabletManifest apply(ManifestEdit e) {
    return switch (e.getEditCase()) {
      case RANGE -> new TabletManifest(tablet, e.getRange(), checkpoints, daughters);
      case CHECKPOINT -> {
        List<CheckpointEdit> kept = new ArrayList<>(KEEP);
        kept.add(e.getCheckpoint());
        for (int i = 0; i < checkpoints.size() && kept.size() < KEEP; i++) {
          kept.add(checkpoints.get(i));
        }
        yield new TabletManifest(tablet, range, kept, daughters);
      }
      case RETIRED -> new TabletManifest(tablet, range, checkpoints, e.getRetired().getDaughtersList());
      case EDIT_NOT_SET -> throw new IllegalArgumentException("an empty manifest edit");
    };
  }

  /** Edits that rebuild this state from nothing (what a rewritten manifest file holds). */
  public List<ManifestEdit> asEdits() {
    List<ManifestEdit> out = new ArrayList<>();
    if (range != null) {
      out.add(ManifestEdit.newBuilder().setRange(range).build());
    }
    for (int i = checkpoints.size() - 1; i >= 0; i--) {
      out.add(ManifestEdit.newBuilder().setCheckpoint(checkpoints.get(i)).build());
    }
    if (!daughters.isEmpty()) {
      out.add(ManifestEdit.newBuilder().setRetired(RetiredEdit.newBuilder().addAllDaughters(daughters)).build());
    }
    return out;
  }

  /** The newest checkpoint, or null if there is none. */
  public CheckpointEdit newest() {
    return checkpoints.isEmpty() ? null : checkpoints.get(0);
  }

  public boolean retired() {
    return !daughters.isEmpty();
  }

  /** Index files the kept checkpoints use. */
  public Set<String> indexPaths() {
    Set<String> out = new LinkedHashSet<>();
    for (CheckpointEdit c : checkpoints) {
      for (GroupCheckpoint g : c.getGroupsList()) {
        out.add(g.getIndexPath());
      }
    }
    return out;
  }

  /** Sorted segments the kept checkpoints use. */
  public Set<String> sortedPaths() {
    Set<String> out = new LinkedHashSet<>();
    for (CheckpointEdit c : checkpoints) {
      for (GroupCheckpoint g : c.getGroupsList()) {
        g.getSortedList().forEach(s -> out.add(s.getPath()));
      }
    }
    return out;
  }

  /** A range edit for [start, end), null meaning unbounded. */
  public static RangeEdit range(byte[] start, byte[] end) {
    RangeEdit.Builder b = RangeEdit.newBuilder();
    if (start != null) {
      b.setHasStart(true).setStartKey(ByteString.copyFrom(start));
    }
    if (end != null) {
      b.setHasEnd(true).setEndKey(ByteString.copyFrom(end));
    }
    return b.build();
  }

  public static byte[] start(RangeEdit r) {
    return r.getHasStart() ? r.getStartKey().toByteArray() : null;
  }

  public static byte[] end(RangeEdit r) {
    return r.getHasEnd() ? r.getEndKey().toByteArray() : null;
  }
}
