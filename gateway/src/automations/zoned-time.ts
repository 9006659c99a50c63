/**
 * Wall-clock times in a tenant's IANA time zone (General Settings), for waits "until Monday 09:00" and
 * date triggers "at 09:00": pure functions over Intl, exact to the minute across daylight-saving changes.
 * A local time that does not exist (skipped by a spring change) is taken one offset later, as the zone's
 * clocks show it; one that happens twice (an autumn change) is its first occurrence.
 */
import { WEEKDAYS, type Weekday } from '../contracts';

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    if (formatters.size > 500) formatters.clear();
    formatters.set(zone, f);
  }
  return f;
}

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock in `zone` at `at`. */
export function localTime(at: Date, zone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The zone's offset from UTC at `at`, in ms. */
function offsetAt(at: number, zone: string): number {
  const l = localTime(new Date(at), zone);
  return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second) - Math.floor(at / 1000) * 1000;
}

/** The instant the zone's clocks show y-m-d h:m (see the module comment for skipped and repeated times). */
export function zonedInstant(zone: string, y: number, m: number, d: number, h: number, min: number): Date {
  const wall = Date.UTC(y, m - 1, d, h, min);
  const first = wall - offsetAt(wall, zone);
  const second = wall - offsetAt(first, zone);
  const shows = (at: number) => {
    const l = localTime(new Date(at), zone);
    return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute) === wall;
  };
  const real = [first, second].filter(shows);
  // Shown twice: the first; never shown (skipped): the later candidate, one offset on.
  return new Date(real.length > 0 ? Math.min(...real) : Math.max(first, second));
}

/** `YYYY-MM-DD` of the zone's calendar day at `at`. */
export function localDay(at: Date, zone: string): string {
  const l = localTime(at, zone);
  return `${String(l.year).padStart(4, '0')}-${String(l.month).padStart(2, '0')}-${String(l.day).padStart(2, '0')}`;
}

/** `HH:MM` as minutes since midnight. */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** The first instant strictly after `after` when the zone's clocks show `weekday` at `time`. */
export function nextWeekdayTime(after: Date, zone: string, weekday: Weekday, time: string): Date {
  const target = WEEKDAYS.indexOf(weekday);
  const minutes = minutesOf(time);
  const today = localTime(after, zone);
  for (let i = 0; i <= 7; i++) {
    const civil = new Date(Date.UTC(today.year, today.month - 1, today.day) + i * DAY_MS);
    if (civil.getUTCDay() !== target) continue;
    const at = zonedInstant(
      zone,
      civil.getUTCFullYear(),
      civil.getUTCMonth() + 1,
      civil.getUTCDate(),
      Math.floor(minutes / 60),
      minutes % 60,
    );
    if (at.getTime() > after.getTime()) return at;
  }
  // Today was the weekday and its time has passed: a week on.
  const civil = new Date(Date.UTC(today.year, today.month - 1, today.day) + 7 * DAY_MS);
  return zonedInstant(
    zone,
    civil.getUTCFullYear(),
    civil.getUTCMonth() + 1,
    civil.getUTCDate(),
    Math.floor(minutes / 60),
    minutes % 60,
  );
}

/** `YYYY-MM-DD` shifted by `days` (calendar arithmetic). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) + days * DAY_MS).toISOString().slice(0, 10);
}
