package org.logbase.common;

/** A column's value as read, with the timestamp of the version it came from. */
public record Cell(byte[] value, long timestamp) {}
