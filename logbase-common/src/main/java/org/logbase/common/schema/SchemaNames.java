package org.logbase.common.schema;

import java.util.regex.Pattern;
import org.logbase.common.Echo;

/** The one rule for table, column-group and column names, so shells and files can quote them safely. */
final class SchemaNames {
  private static final Pattern VALID = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,127}");

  private SchemaNames() {}

  static void check(String what, String name) {
    if (name == null || !VALID.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "invalid " + what + " name '" + Echo.of(name) + "': use a letter or '_' followed by up to 127 of"
              + " [A-Za-z0-9_.-]");
    }
  }
}
