/**
 * Machine opens and clicks (issue text "Machine opens (prefetch, proxies) are recorded but unique opens
 * and clicks are what rates use"): a request that no person made. Recorded with `machine = true`, never
 * counted in the campaign's figures.
 *
 * - By user agent: mail privacy proxies that fetch every image on delivery (Apple Mail Privacy
 *   Protection sends a bare `Mozilla/5.0`), security scanners and link checkers (Barracuda, Mimecast,
 *   Proofpoint, Microsoft's Safe Links preview, HTTP libraries and headless browsers), and no user agent
 *   at all. Gmail's and Yahoo's image proxies fetch when the person opens the e-mail: they are opens.
 * - By timing: a request within MACHINE_WINDOW_MS of sending is a scanner at the receiving server; no
 *   person opens an e-mail that fast.
 * - HEAD requests (link checkers ask whether a link works without following it).
 */

/** Requests this soon after the message was sent are machines. */
export const MACHINE_WINDOW_MS = 5_000;

const MACHINE_AGENTS = [
  /^Mozilla\/5\.0$/, // Apple Mail Privacy Protection's proxy
  /bot\b|crawler|spider|scanner|preview/i,
  /barracuda|mimecast|proofpoint|forcepoint|symantec|trendmicro|sophos|fortiguard|ironport|cisco|zscaler|messagelabs/i,
  /safelinks|microsoft office|ms-office|outlook-ios-linkpreview|skypeuripreview|slackbot|whatsapp|telegrambot/i,
  /headlesschrome|phantomjs|python-requests|python-urllib|aiohttp|go-http-client|java\/|okhttp|curl\/|wget|libwww|httpclient|node-fetch|axios|undici/i,
];

/** Whether a user agent is a machine (see the module comment); no user agent is a machine. */
export function isMachineAgent(userAgent: string | undefined): boolean {
  const ua = (userAgent ?? '').trim();
  if (!ua) return true;
  return MACHINE_AGENTS.some((pattern) => pattern.test(ua));
}

export interface RequestFacts {
  method: string;
  userAgent: string | undefined;
  /** When the recipient's message was sent (null: not recorded). */
  sentAt: Date | null;
  now: Date;
}

/** Whether an open or a click was made by a machine. */
export function isMachineRequest(facts: RequestFacts): boolean {
  if (facts.method === 'HEAD') return true;
  if (isMachineAgent(facts.userAgent)) return true;
  if (facts.sentAt && facts.now.getTime() - facts.sentAt.getTime() < MACHINE_WINDOW_MS) return true;
  return false;
}
