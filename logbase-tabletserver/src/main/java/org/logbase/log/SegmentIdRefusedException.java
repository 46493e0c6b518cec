package org.logbase.log;

import java.io.IOException;

/**
 * A new segment's id is not above the log's newest segment (an id allocator that lost its state):
 * writing it would put records where recovery does not look. Not a failure trying again can mend.
 */
final class SegmentIdRefusedException extends IOException {
  SegmentIdRefusedException(String message) {
    super(message);
  }
}
