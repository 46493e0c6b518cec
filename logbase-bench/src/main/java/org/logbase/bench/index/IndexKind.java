package org.logbase.bench.index;

import java.util.Locale;
import org.logbase.index.BLinkTree;
import org.logbase.index.MultiVersionIndex;

/** The index implementations under comparison, by their benchmark parameter name. */
enum IndexKind {
  BLINK {
    @Override
    MultiVersionIndex create() {
      return new BLinkTree();
    }
  },
  SKIPLIST {
    @Override
    MultiVersionIndex create() {
      return new SkipListIndex();
    }
  };

  abstract MultiVersionIndex create();

  static IndexKind of(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }
}
