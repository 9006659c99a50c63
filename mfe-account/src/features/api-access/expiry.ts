/** The Create key dialog's expiry: a day, the key working until the end of it (the person's time zone). */

/** The instant a key chosen to expire on `day` (YYYY-MM-DD) stops working: the end of that day, local time. */
export function expiryInstant(day: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const end = new Date(`${day}T23:59:59.999`);
  return Number.isNaN(end.getTime()) ? null : end.toISOString();
}

/** Today as YYYY-MM-DD in the person's time zone (the date input's minimum). */
export function today(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
