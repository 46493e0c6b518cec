/**
 * Sorted segments: immutable files that hold the versions of one (table, tablet, column group) in
 * entry order (row key ascending unsigned-lexicographic, then timestamp descending), in
 * checksummed, optionally compressed blocks with a block index, a Bloom filter over row keys and a
 * footer of statistics (docs/log-format.md, "Sorted segments"). Compaction (issue #10) writes
 * them; reads merge them with the in-memory index. Point reads read a block with a positioned read
 * through the block cache; scans read blocks in file order through a stream of their own and do
 * not fill the cache. Every block is checked with its own CRC32C, so scans' streams may skip HDFS's
 * checksums ({@link org.logbase.sorted.ScanFileSystem}); a block that fails its check is then read
 * again with them.
 *
 * <p>Owns: the file formats behind {@link org.logbase.sorted.SegmentFormat} (looked up by version in
 * {@link org.logbase.sorted.SortedFormats}; version 1 today), block compression ({@link
 * org.logbase.sorted.Compression}), the block cache hook ({@link org.logbase.sorted.BlockCache}),
 * the iterator contract every layer of a read implements ({@link
 * org.logbase.sorted.EntryIterator}) and the merge of layers ({@link
 * org.logbase.sorted.MergingIterator}). Any damage (checksum, magic, version, truncation,
 * decompression) is raised as {@link org.logbase.sorted.SegmentDamageException}; no entry of a
 * damaged block is ever returned.
 *
 * <p>Must not know about tablets, manifests, transactions or visibility: a segment returns the
 * versions it holds, tombstones included, and callers decide what a reader may see, which files a
 * tablet uses and when a file may be deleted. File names, ids and durability of the manifest that
 * names a segment are the caller's business too.
 */
package org.logbase.sorted;
