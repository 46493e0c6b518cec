package org.logbase.txn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The default lock manager: a sorted in-memory table in the server that owns the rows. Sorted, so
 * that a scan finds the locks in its key range without visiting others.
 */
public final class LocalLockManager implements LockManager {
  private final ConcurrentSkipListMap<LockKey, TxnLock> locks = new ConcurrentSkipListMap<>();

  @Override
  public TxnLock tryLockAll(List<LockKey> rows, TxnLock owner) {
    List<LockKey> taken = new ArrayList<>(rows.size());
    for (LockKey row : rows) {
      TxnLock prev = locks.putIfAbsent(row, owner);
      if (prev != null && prev != owner) {
        unlock(taken, owner);
        return prev;
      }
      if (prev == null) {
        taken.add(row);
      }
    }
    return null;
  }

  /** Takes one row for {@code owner} if it is free or already its own; the ZooKeeper manager builds on this. */
  TxnLock tryLock(LockKey row, TxnLock owner) {
    TxnLock prev = locks.putIfAbsent(row, owner);
    return prev == null || prev == owner ? null : prev;
  }

  @Override
  public void unlockAll(List<LockKey> rows, TxnLock owner) {
    unlock(rows, owner);
    owner.released().complete(null);
  }

  void unlock(List<LockKey> rows, TxnLock owner) {
    for (LockKey row : rows) {
      locks.remove(row, owner);
    }
  }

  @Override
  public TxnLock holder(LockKey row) {
    return locks.get(row);
  }

  @Override
  public List<TxnLock> heldIn(int tableId, byte[] startInclusive, byte[] endExclusive) {
    LockKey from = new LockKey(tableId, startInclusive == null ? new byte[0] : startInclusive);
    ConcurrentNavigableMap<LockKey, TxnLock> range = endExclusive == null
        ? locks.subMap(from, true, new LockKey(tableId + 1, new byte[0]), false)
        : locks.subMap(from, true, new LockKey(tableId, endExclusive), false);
    return new ArrayList<>(range.values());
  }

  @Override
  public List<Held> all() {
    List<Held> out = new ArrayList<>();
    for (Map.Entry<LockKey, TxnLock> e : locks.entrySet()) {
      out.add(new Held(e.getKey(), e.getValue()));
    }
    return out;
  }
}
