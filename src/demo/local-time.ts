const DAY_MS = 86_400_000;

/**
 * Wall-clock arithmetic in one IANA zone, precise enough for shaping demo
 * traffic: a local day's UTC offset is taken at its noon, so the hours around a
 * daylight-saving switch may be off by one (harmless for made-up history).
 */
export class LocalCalendar {
  readonly #format: Intl.DateTimeFormat;
  readonly #offsets = new Map<number, number>();

  constructor(readonly timezone: string) {
    this.#format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** The local wall clock of `utcMs`, expressed as if it were UTC milliseconds. */
  wallClock(utcMs: number): number {
    const parts = this.#format.formatToParts(new Date(utcMs));
    const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) + (utcMs % 1000);
  }

  /** The local day number (days since 1970-01-01 on the local calendar) of `utcMs`. */
  localDay(utcMs: number): number {
    return Math.floor(this.wallClock(utcMs) / DAY_MS);
  }

  /** The UTC instant of `msIntoDay` after local midnight of local day `day`. */
  toUtc(day: number, msIntoDay: number): number {
    let offset = this.#offsets.get(day);
    if (offset === undefined) {
      const noonGuess = day * DAY_MS + DAY_MS / 2;
      offset = this.wallClock(noonGuess) - noonGuess;
      this.#offsets.set(day, offset);
    }
    return day * DAY_MS + msIntoDay - offset;
  }
}

/** ISO weekday of a local day number: 1 Monday .. 7 Sunday (1970-01-01 was a Thursday). */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

export { DAY_MS };
