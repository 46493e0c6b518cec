package org.logbase.shell;

import java.util.Arrays;
import java.util.List;

/** A column group as typed: {@code group:col1,col2}. */
record GroupSpec(String group, List<String> columns) {
  static GroupSpec parse(String text) {
    int colon = text.indexOf(':');
    List<String> columns = colon < 0 ? List.of()
        : Arrays.stream(text.substring(colon + 1).split(",")).map(String::strip).filter(c -> !c.isEmpty()).toList();
    if (colon <= 0 || columns.isEmpty()) {
      throw new ShellException("invalid column group '" + text + "': write it as group:column[,column...]");
    }
    return new GroupSpec(text.substring(0, colon).strip(), columns);
  }
}
