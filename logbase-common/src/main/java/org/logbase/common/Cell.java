package org.logbase.common;

import java.util.Arrays;
import java.util.Objects;

/**
 * A column's value as read, with the timestamp of the version it came from. A cell either owns its
 * value, an array of its own ({@link #Cell(byte[], long)}: every cell a client sees), or is a view
 * of part of an array a reader lends ({@link #view}): a tablet server's scans hand out values as
 * views of the data blocks they read instead of copying each into new memory, and reuse a block
 * once the rows that view it were sent ({@link Loan}). Reading a view after its loan ended fails
 * with {@link IllegalStateException}. Immutable; equal by timestamp and value bytes.
 */
public final class Cell {
  private final byte[] array;
  private final int offset;
  private final int length;
  private final long timestamp;
  /** Null: nobody reuses the array (the cell owns it, or views a block no scan reads into again). */
  private final Loan loan;

  /** A cell that owns {@code value} (kept as it is, not copied: do not change it afterwards). */
  public Cell(byte[] value, long timestamp) {
    this(value, 0, value.length, timestamp, null);
  }

  private Cell(byte[] array, int offset, int length, long timestamp, Loan loan) {
    this.array = array;
    this.offset = offset;
    this.length = length;
    this.timestamp = timestamp;
    this.loan = loan;
  }

  /**
   * A view of {@code array[offset, offset + length)}, readable while {@code loan} runs (null: for
   * as long as the cell lives).
   */
  public static Cell view(byte[] array, int offset, int length, long timestamp, Loan loan) {
    Objects.checkFromIndexSize(offset, length, array.length);
    return new Cell(array, offset, length, timestamp, loan);
  }

  /**
   * The value: the cell's own array if it owns one (do not change it), else a copy.
   *
   * @throws IllegalStateException if the cell is a view whose loan has ended
   */
  public byte[] value() {
    return owns() ? array : Loan.copy(array, offset, length, loan);
  }

  /** Bytes of the value, read without a copy. */
  public int valueLength() {
    Loan.check(loan);
    return length;
  }

  public long timestamp() {
    return timestamp;
  }

  /**
   * Reads the value where it is: {@code reader} gets the array and the value's place in it, and
   * must neither keep nor change the array.
   *
   * @throws IllegalStateException if the cell is a view whose loan has ended (checked before and
   *     after the read)
   */
  public <T> T readValue(ValueReader<T> reader) {
    Loan.check(loan);
    T t = reader.read(array, offset, length);
    Loan.check(loan);
    return t;
  }

  /** Whether the cell owns its value: readable for as long as it lives, {@link #value} without a copy. */
  public boolean owns() {
    return loan == null && offset == 0 && length == array.length;
  }

  /** This cell if it owns its value, else one that owns a copy. */
  public Cell owned() {
    return owns() ? this : new Cell(value(), timestamp);
  }

  /** Reads a value in place ({@link #readValue}). */
  @FunctionalInterface
  public interface ValueReader<T> {
    T read(byte[] array, int offset, int length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cell c && timestamp == c.timestamp && Arrays.equals(value(), c.value());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(value()) * 31 + Long.hashCode(timestamp);
  }

  /** The timestamp and the value's length (values may be large). */
  @Override
  public String toString() {
    return "Cell[" + length + " bytes @" + timestamp + (owns() ? "" : ", a view") + "]";
  }
}
