package org.logbase.common.rpc;

import com.google.protobuf.ByteString;
import java.util.TreeMap;
import org.logbase.common.Cell;
import org.logbase.common.Row;
import org.logbase.rpc.RowResult;

/** Converts rows to and from their wire form. */
public final class RowProtos {
  private RowProtos() {}

  public static RowResult toProto(Row row) {
    RowResult.Builder b = RowResult.newBuilder().setKey(ByteString.copyFrom(row.key()));
    row.cells().forEach((column, cell) -> b.addCells(org.logbase.rpc.Cell.newBuilder()
        .setColumn(column).setValue(ByteString.copyFrom(cell.value())).setTimestamp(cell.timestamp())));
    return b.build();
  }

  public static Row fromProto(RowResult r) {
    TreeMap<String, Cell> cells = new TreeMap<>();
    for (org.logbase.rpc.Cell c : r.getCellsList()) {
      cells.put(c.getColumn(), new Cell(c.getValue().toByteArray(), c.getTimestamp()));
    }
    return new Row(r.getKey().toByteArray(), cells);
  }
}
