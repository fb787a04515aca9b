/**
 * Date bucket keys: Moment.js format tokens applied to a bucket start in the
 * request's zone. The database gives each bucket start as a wall-clock time
 * (what a clock in the zone shows) plus the instant it denotes; dayjs formats
 * the wall-clock time as if it were UTC, so no time-zone arithmetic happens
 * here. Tokens dayjs lacks, and the ones that need the instant or the zone
 * (X, x, Z, ZZ, z, zzz), are rendered here and handed to dayjs escaped.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import advancedFormat from 'dayjs/plugin/advancedFormat.js';
import isoWeek from 'dayjs/plugin/isoWeek.js';
import weekOfYear from 'dayjs/plugin/weekOfYear.js';
import weekYear from 'dayjs/plugin/weekYear.js';
import dayOfYear from 'dayjs/plugin/dayOfYear.js';

dayjs.extend(utc);
dayjs.extend(advancedFormat);
dayjs.extend(isoWeek);
dayjs.extend(weekOfYear);
dayjs.extend(weekYear);
dayjs.extend(dayOfYear);

export interface BucketStart {
  /** Wall-clock time in the zone, `YYYY-MM-DDTHH:MM:SS`. */
  wall: string;
  /** The instant that wall-clock time denotes in the zone. */
  at: Date;
}

// Escapes first, then longer tokens before their prefixes. Tokens not listed
// here (YYYY, MM, DD, dddd, HH, h, A, W, GGGG, gggg, Do, Q, ...) go to dayjs.
const OWN_TOKENS = /\[[^\]]*\]|GGGG|gggg|DDDD|DDDo|DDD|Mo|Qo|do|Wo|GG|gg|zzz|zz|z|ZZ|Z|X|x|E|e|S+/g;

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function offsetText(offsetMinutes: number, separator: string): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${separator}${String(abs % 60).padStart(2, '0')}`;
}

function zoneName(at: Date, timeZone: string, style: 'short' | 'long', fallback: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: style }).formatToParts(at);
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? fallback;
  } catch {
    return fallback; // a zone the database knows but this runtime's ICU does not
  }
}

export function formatBucketStart(start: BucketStart, format: string, timeZone: string): string {
  const wall = dayjs.utc(`${start.wall}Z`);
  const offsetMinutes = Math.round((wall.valueOf() - start.at.getTime()) / 60_000);
  const own = (token: string): string => {
    switch (token) {
      case 'DDDD':
        return String(wall.dayOfYear()).padStart(3, '0');
      case 'DDDo':
        return ordinal(wall.dayOfYear());
      case 'DDD':
        return String(wall.dayOfYear());
      case 'Mo':
        return ordinal(wall.month() + 1);
      case 'Qo':
        return ordinal(Math.floor(wall.month() / 3) + 1);
      case 'do':
        return ordinal(wall.day());
      case 'Wo':
        return ordinal(wall.isoWeek());
      case 'GG':
        return String(wall.isoWeekYear() % 100).padStart(2, '0');
      case 'gg':
        return String(wall.weekYear() % 100).padStart(2, '0');
      case 'E':
        return String(wall.isoWeekday());
      case 'e':
        return String(wall.day());
      case 'X':
        return String(Math.floor(start.at.getTime() / 1000));
      case 'x':
        return String(start.at.getTime());
      case 'Z':
        return offsetText(offsetMinutes, ':');
      case 'ZZ':
        return offsetText(offsetMinutes, '');
      case 'z':
      case 'zz':
        return zoneName(start.at, timeZone, 'short', offsetText(offsetMinutes, ':'));
      case 'zzz':
        return zoneName(start.at, timeZone, 'long', offsetText(offsetMinutes, ':'));
      default:
        if (token.startsWith('S')) return '0'.repeat(token.length); // bucket starts are whole seconds
        return token; // an escape or a token dayjs renders itself
    }
  };
  const prepared = format.replace(OWN_TOKENS, (token) => {
    if (token.startsWith('[') || token === 'GGGG' || token === 'gggg') return token;
    return `[${own(token)}]`;
  });
  return wall.format(prepared);
}
