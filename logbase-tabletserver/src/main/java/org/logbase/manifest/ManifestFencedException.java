package org.logbase.manifest;

import java.io.IOException;

/**
 * A manifest edit refused because another process wrote the tablet's manifest after this one last
 * read or wrote it: the tablet was given to another server, and this one lost it without noticing
 * (paused past its session, say). Nothing of the edit was written (an edit that may have been
 * written before the refusal fails with another exception, this one as its cause); the writer must
 * not go on acting for the tablet (deleting files its edit no longer needed, for one).
 */
public final class ManifestFencedException extends IOException {
  public ManifestFencedException(String message) {
    super(message);
  }
}
