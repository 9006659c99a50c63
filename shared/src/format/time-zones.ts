/**
 * Time zones as the console offers them (IANA names): the browser's own, the list to choose from, and the
 * zone a schedule starts in. Pure; shared by Your Profile, General Settings and e-mail scheduling.
 */

/** Whether the runtime knows the IANA zone (aliases such as 'US/Eastern' included). */
export function isKnownTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The browser's time zone, 'UTC' when it cannot tell. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The zones to choose from: every IANA zone the browser knows, with `current` in it (first when unknown). */
export function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  if (!current || known.includes(current)) return known;
  return [current, ...known];
}

/** A zone as a select shows it: 'America/New York' for 'America/New_York'. */
export function timeZoneLabel(zone: string): string {
  return zone.replace(/_/g, ' ');
}

/**
 * The zone a new schedule starts in: the signed-in user's (their own, else their community's, as the
 * session user's `time_zone` carries it) when the browser knows it, else the browser's (our choice).
 */
export function defaultScheduleZone(userZone: string | null | undefined): string {
  return userZone && isKnownTimeZone(userZone) ? userZone : browserTimeZone();
}
