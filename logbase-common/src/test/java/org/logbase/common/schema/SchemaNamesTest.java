package org.logbase.common.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Names and column lists get errors that say what is wrong, and quote the input cut short. */
class SchemaNamesTest {
  @Test
  void aColumnTwiceInOneGroupIsNamedAsSuch() {
    // Used to say "column 'a' appears in more than one column group".
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TableSchema("t3", 1, List.of(new ColumnGroup(0, "g", List.of("a", "b", "a")))));
    assertEquals("column 'a' appears twice in column group 'g'", e.getMessage());
  }

  @Test
  void aLongInvalidNameIsQuotedCutShort() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TableSchema.checkTableName("n".repeat(8000)));
    assertEquals("invalid table name '" + "n".repeat(64) + "... (8000 characters)': use a letter or '_' followed by"
        + " up to 127 of [A-Za-z0-9_.-]", e.getMessage());
  }
}
