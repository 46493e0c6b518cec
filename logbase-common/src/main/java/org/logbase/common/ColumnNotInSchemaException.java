package org.logbase.common;

/** A request named a column that no column group of the table declares. */
public class ColumnNotInSchemaException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public ColumnNotInSchemaException(String table, String column) {
    super("column '" + Echo.of(column) + "' is not in the schema of table '" + Echo.of(table) + "'");
  }

  /** With a message as received from a server. */
  public ColumnNotInSchemaException(String message) {
    super(message);
  }
}
