package org.logbase.files;

import java.io.IOException;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * An input stream that passes every call on to the file system's stream it wraps: sequential and
 * positioned reads, seeks, unbuffering, capabilities. A file system that wraps another's streams
 * (to count, hold or stop their reads) extends it and overrides only what it changes; hand it out
 * as {@code new FSDataInputStream(stream)}.
 */
public class ForwardingInputStream extends FSInputStream implements CanUnbuffer, StreamCapabilities {
  protected final FSDataInputStream in;

  public ForwardingInputStream(FSDataInputStream in) {
    this.in = in;
  }

  @Override
  public int read() throws IOException {
    return in.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return in.read(b, off, len);
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    return in.read(position, buffer, offset, length);
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    in.readFully(position, buffer, offset, length);
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }

  @Override
  public void seek(long pos) throws IOException {
    in.seek(pos);
  }

  @Override
  public long getPos() throws IOException {
    return in.getPos();
  }

  @Override
  public boolean seekToNewSource(long targetPos) throws IOException {
    return in.seekToNewSource(targetPos);
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  @Override
  public void unbuffer() {
    in.unbuffer();
  }

  @Override
  public boolean hasCapability(String capability) {
    return in.hasCapability(capability);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
