package org.logbase.common.rpc;

import com.google.protobuf.ByteString;
import org.logbase.common.Cell;
import org.logbase.common.Cells;
import org.logbase.common.Row;
import org.logbase.rpc.RowResult;

/** Converts rows to and from their wire form. */
public final class RowProtos {
  private RowProtos() {}

  /** The row's wire form; each value copied once, from where it is (a view of a scan's block too). */
  public static RowResult toProto(Row row) {
    RowResult.Builder b = RowResult.newBuilder().setKey(ByteString.copyFrom(row.key()));
    row.cells().forEach((column, cell) -> b.addCells(org.logbase.rpc.Cell.newBuilder()
        .setColumn(column).setValue(cell.readValue(ByteString::copyFrom)).setTimestamp(cell.timestamp())));
    return b.build();
  }

  public static Row fromProto(RowResult r) {
    Cells.Builder cells = Cells.builder(r.getCellsCount());
    for (org.logbase.rpc.Cell c : r.getCellsList()) {
      if (!cells.addIfAbsent(c.getColumn(), new Cell(c.getValue().toByteArray(), c.getTimestamp()))) {
        throw new IllegalArgumentException("a row holds column '" + c.getColumn() + "' twice");
      }
    }
    return new Row(r.getKey().toByteArray(), cells.build());
  }
}
