/**
 * The public sign-up endpoints' limits (per client address, per widget or community, per e-mail
 * address): fixed-window counters (lib/window-throttle.ts).
 */
import { type Limit, WindowThrottle } from '../../lib/window-throttle';

export const TOO_MANY_SIGNUPS = 'Too many sign-ups from here. Please try again later.';

export { retryAfterSeconds, windowStart, type Limit } from '../../lib/window-throttle';
export { clientKey } from '../../lib/client-key';

export class PublicThrottle extends WindowThrottle {
  override enforce(limits: readonly Limit[], message = TOO_MANY_SIGNUPS): Promise<void> {
    return super.enforce(limits, message);
  }
}
