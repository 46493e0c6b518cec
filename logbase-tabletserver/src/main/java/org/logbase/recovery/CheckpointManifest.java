package org.logbase.recovery;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.logbase.log.LogPosition;

/**
 * What a checkpoint covers, stored as a small properties file beside its index file. Written after
 * the index file is complete, so a manifest's existence means its index was fully written.
 *
 * @param lsn every record up to this LSN is in the index
 * @param position replaying the log from here brings the index up to date
 * @param entries number of index entries in the index file
 * @param indexCrc CRC32C of the index file's contents (also stored in the file's trailer)
 * @param maxTimestamp largest timestamp in the index; the clock must restart above it
 */
public record CheckpointManifest(
    int tableId, int tabletId, int columnGroupId, long lsn, LogPosition position, long entries,
    int indexCrc, long maxTimestamp, String indexFile) {

  static final int FORMAT = 1;

  byte[] toBytes() throws IOException {
    Properties p = new Properties();
    p.setProperty("format", Integer.toString(FORMAT));
    p.setProperty("table", Integer.toString(tableId));
    p.setProperty("tablet", Integer.toString(tabletId));
    p.setProperty("columnGroup", Integer.toString(columnGroupId));
    p.setProperty("lsn", Long.toString(lsn));
    p.setProperty("segment", Long.toString(position.segment()));
    p.setProperty("offset", Long.toString(position.offset()));
    p.setProperty("entries", Long.toString(entries));
    p.setProperty("indexCrc", Integer.toString(indexCrc));
    p.setProperty("maxTimestamp", Long.toString(maxTimestamp));
    p.setProperty("indexFile", indexFile);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    p.store(out, "LogBase checkpoint manifest");
    return out.toByteArray();
  }

  static CheckpointManifest parse(byte[] bytes) throws IOException {
    Properties p = new Properties();
    p.load(new InputStreamReader(new ByteArrayInputStream(bytes), StandardCharsets.ISO_8859_1));
    try {
      if (Integer.parseInt(req(p, "format")) != FORMAT) {
        throw new IOException("unsupported checkpoint manifest format " + p.getProperty("format"));
      }
      return new CheckpointManifest(
          Integer.parseInt(req(p, "table")),
          Integer.parseInt(req(p, "tablet")),
          Integer.parseInt(req(p, "columnGroup")),
          Long.parseLong(req(p, "lsn")),
          new LogPosition(Long.parseLong(req(p, "segment")), Long.parseLong(req(p, "offset"))),
          Long.parseLong(req(p, "entries")),
          Integer.parseInt(req(p, "indexCrc")),
          Long.parseLong(req(p, "maxTimestamp")),
          req(p, "indexFile"));
    } catch (NumberFormatException e) {
      throw new IOException("malformed checkpoint manifest: " + e.getMessage(), e);
    }
  }

  private static String req(Properties p, String key) throws IOException {
    String v = p.getProperty(key);
    if (v == null) {
      throw new IOException("checkpoint manifest lacks '" + key + "'");
    }
    return v;
  }
}
