/**
 * The instants the API accepts wherever it takes a date-time (docs/behaviour.md §2): from
 * 0001-01-02T00:00:00Z to 9999-12-30T23:59:59.999Z. Both engines hold far more (PostgreSQL from
 * 4713 BC), but outside years 1 to 9999 a time has no RFC 3339 form: the ISO-8601 text the service
 * sends and answers writes 1 BC as year `0000`, which PostgreSQL refuses, and years past 9999 with a
 * sign. The day of margin keeps the local date of an accepted instant within those years in every
 * time zone (statistics keys, dates in the account's zone).
 */
export const EARLIEST_INSTANT = new Date('0001-01-02T00:00:00.000Z');
export const LATEST_INSTANT = new Date('9999-12-30T23:59:59.999Z');

/** Why `at` is not accepted (an error item's code and the end of its message), or null when it is. */
export function instantOutOfRange(at: Date): { code: 'formatMinimum' | 'formatMaximum'; message: string } | null {
  if (at < EARLIEST_INSTANT) return { code: 'formatMinimum', message: `must not be before ${EARLIEST_INSTANT.toISOString()}` };
  if (at > LATEST_INSTANT) return { code: 'formatMaximum', message: `must not be after ${LATEST_INSTANT.toISOString()}` };
  return null;
}
