package org.logbase.tablet;

import org.logbase.sorted.SortedSegmentReader;

/**
 * A sorted segment a tablet reads: its cluster-wide file id, its path as manifests store it, and an
 * open reader (shared by every tablet that names the file; see {@code SortedSegments}).
 */
public record SortedSegment(long fileId, String storedPath, SortedSegmentReader reader) {}
