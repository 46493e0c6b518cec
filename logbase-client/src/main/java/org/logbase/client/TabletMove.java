package org.logbase.client;

/**
 * A tablet moved by {@link Admin#moveTablet}.
 *
 * @param unavailableMs how long the tablet took no writes: from its old server refusing them to its
 *     new server serving it
 */
public record TabletMove(String table, int tabletId, String fromServer, String toServer, long unavailableMs) {}
