import {
  browserTimeZone,
  defaultScheduleZone,
  isKnownTimeZone,
  timeZoneLabel,
  timeZones,
} from '@console/shared/format';

describe('time zones', () => {
  it('knows IANA zones and aliases, not made-up names', () => {
    expect(isKnownTimeZone('Europe/Madrid')).toBe(true);
    expect(isKnownTimeZone('US/Eastern')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
    expect(isKnownTimeZone('')).toBe(false);
  });

  it('lists every zone once, with the current one first when the list lacks it', () => {
    const all = timeZones('Europe/Madrid');
    expect(all).toContain('America/New_York');
    expect(all.filter((z) => z === 'Europe/Madrid')).toHaveLength(1);
    expect(timeZones('US/Eastern')[0]).toBe('US/Eastern');
    expect(timeZones('')).toEqual(timeZones('Europe/Madrid'));
  });

  it('labels zones with spaces', () => {
    expect(timeZoneLabel('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos Aires');
  });

  it("schedules in the user's zone when known, else the browser's", () => {
    expect(defaultScheduleZone('Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(defaultScheduleZone(null)).toBe(browserTimeZone());
    expect(defaultScheduleZone(undefined)).toBe(browserTimeZone());
    expect(defaultScheduleZone('Nowhere/Land')).toBe(browserTimeZone());
  });
});
