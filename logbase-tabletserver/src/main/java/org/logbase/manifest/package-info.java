/**
 * Tablet manifests: for each tablet, in the shared file system where any server can read it, the
 * tablet's key range, its newest checkpoints (an index file per column group, the data files their
 * entries point into, and the log position its tail must be replayed from) and whether it was split.
 * As LevelDB's MANIFEST: a file of edits, each appended as a checksummed frame and flushed; a torn
 * last edit never happened; the file is rewritten as a snapshot of the state now and then (a new
 * file, complete before it is renamed into place). The state is published as an immutable {@link
 * org.logbase.manifest.TabletManifest}. The files fence a writer that lost the tablet without
 * noticing: see {@link org.logbase.manifest.ManifestLog}.
 *
 * <p>Owns: the MANIFEST files under {@code <shared>/tablets/<tablet>/}. Must not write index files or
 * decide when to checkpoint (recovery does), nor know how records are routed.
 */
package org.logbase.manifest;
