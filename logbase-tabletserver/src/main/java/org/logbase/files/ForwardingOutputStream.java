package org.logbase.files;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;

/**
 * An output stream that passes every call on to the file system's stream it wraps, hflush and hsync
 * included (which a stream that is not {@link Syncable} refuses). A file system that wraps
 * another's streams (to sync names, hold or fail writes) extends it and overrides only what it
 * changes; hand it out as {@code new FSDataOutputStream(stream, statistics)}.
 */
public class ForwardingOutputStream extends OutputStream implements Syncable, StreamCapabilities {
  protected final OutputStream out;

  public ForwardingOutputStream(OutputStream out) {
    this.out = out;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void hflush() throws IOException {
    syncable().hflush();
  }

  @Override
  public void hsync() throws IOException {
    syncable().hsync();
  }

  private Syncable syncable() {
    if (out instanceof Syncable s) {
      return s;
    }
    throw new UnsupportedOperationException(out.getClass().getName() + " can neither hflush nor hsync");
  }

  @Override
  public boolean hasCapability(String capability) {
    return out instanceof StreamCapabilities c && c.hasCapability(capability);
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
