/**
 * What a report that came back says about its recipient (docs/sending.md, "Bounces and complaints").
 * Pure: the receiver (receiver.ts) hands it the message's top Content-Type and its report parts.
 *
 * - A delivery status notification (RFC 3464: `multipart/report; report-type=delivery-status`, a
 *   `message/delivery-status` part, or `message/global-delivery-status` of RFC 6533): one group of
 *   fields per recipient (section 2.3). `Action: failed` with a permanent `Status` (5.x.x, RFC 3463)
 *   is a hard bounce; `Action: failed` with a temporary status (4.x.x) or `Action: delayed` is a soft
 *   bounce; delivered, relayed and expanded say nothing against the address.
 * - A complaint (RFC 5965: `multipart/report; report-type=feedback-report`, a `message/feedback-report`
 *   part): `Feedback-Type` abuse, fraud, virus or other is a complaint; not-spam and auth-failure
 *   (RFC 6591, an authentication failure report) are not.
 * - Anything else (an auto-reply, an out-of-office, a bounce in free text) says nothing: RFC 3834
 *   sends auto-replies to the envelope sender too, so only a structured report marks anyone.
 *
 * With several recipients in one report, the strongest outcome wins: hard bounce, then soft.
 */

export interface ReportPart {
  mimeType: string;
  content: string;
}

export interface ReportMessage {
  /** The message's top Content-Type header, parameters included. */
  contentType: string;
  /** Its non-text parts (postal-mime's attachments), content as text. */
  parts: readonly ReportPart[];
}

export type ReportOutcome =
  | { kind: 'hard-bounce'; detail: string }
  | { kind: 'soft-bounce'; detail: string }
  | { kind: 'complaint'; detail: string }
  | { kind: 'none'; reason: string };

/** Recipient groups read from one report, and the characters of detail kept. */
const MAX_GROUPS = 100;
const MAX_DETAIL = 1000;

const COMPLAINT_TYPES = new Set(['abuse', 'fraud', 'virus', 'other']);

/** `type/subtype` and the `report-type` parameter of a Content-Type (lower case). */
export function reportTypeOf(contentType: string): { type: string; reportType: string | null } {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  const param = /;\s*report-type\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(contentType);
  const reportType = param ? (param[1] ?? param[2] ?? '').trim().toLowerCase() : null;
  return { type, reportType };
}

/**
 * The groups of `Name: value` fields of a report part (RFC 3464 section 2.1: header-like fields,
 * groups separated by blank lines, continuation lines start with white space), names in lower case.
 */
export function fieldGroups(text: string): Map<string, string>[] {
  const groups: Map<string, string>[] = [];
  let group = new Map<string, string>();
  let last: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      if (group.size > 0) groups.push(group);
      if (groups.length > MAX_GROUPS) break;
      group = new Map();
      last = null;
      continue;
    }
    if (/^[ \t]/.test(line) && last) {
      group.set(last, `${group.get(last) ?? ''} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    if (!group.has(last)) group.set(last, line.slice(colon + 1).trim());
  }
  if (group.size > 0 && groups.length <= MAX_GROUPS) groups.push(group);
  return groups;
}

function clip(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}

/** The class of a `Status` field (2, 4 or 5), or null when it is not one (RFC 3463). */
function statusClass(status: string | undefined): { code: string; klass: 2 | 4 | 5 } | null {
  const match = /^([245])\.(\d{1,3})\.(\d{1,3})\b/.exec((status ?? '').trim());
  if (!match) return null;
  return { code: `${match[1]}.${match[2]}.${match[3]}`, klass: Number(match[1]) as 2 | 4 | 5 };
}

/** A Diagnostic-Code without its type (`smtp; 550 …` → `550 …`). */
function diagnosticOf(group: Map<string, string>): string {
  const code = group.get('diagnostic-code') ?? '';
  return code.replace(/^[a-z0-9-]+\s*;\s*/i, '').trim();
}

function deliveryOutcome(text: string): ReportOutcome {
  // The first group is the message's (Reporting-MTA, …); the recipients' follow. A group without
  // an Action is not a recipient's.
  let soft: string | null = null;
  for (const group of fieldGroups(text)) {
    const action = (group.get('action') ?? '').split(/[\s(]/)[0]?.toLowerCase() ?? '';
    if (action !== 'failed' && action !== 'delayed') continue;
    const status = statusClass(group.get('status'));
    const diagnostic = diagnosticOf(group);
    const detail = clip([status?.code ?? group.get('status') ?? '', diagnostic].filter(Boolean).join(' '));
    if (action === 'failed' && (status === null || status.klass === 5)) return { kind: 'hard-bounce', detail };
    soft ??= detail || action;
  }
  if (soft !== null) return { kind: 'soft-bounce', detail: soft };
  return { kind: 'none', reason: 'The delivery status names no failed or delayed recipient.' };
}

function feedbackOutcome(text: string): ReportOutcome {
  const [fields] = fieldGroups(text);
  const type = (fields?.get('feedback-type') ?? '').toLowerCase();
  if (!COMPLAINT_TYPES.has(type)) return { kind: 'none', reason: `Feedback-Type "${clip(type)}" is not a complaint.` };
  const agent = fields?.get('user-agent');
  return { kind: 'complaint', detail: clip(`Feedback-Type: ${type}${agent ? `; User-Agent: ${agent}` : ''}`) };
}

/** What a message that came back to a VERP address says about its recipient. */
export function classifyReport(message: ReportMessage): ReportOutcome {
  const { type, reportType } = reportTypeOf(message.contentType);
  if (type !== 'multipart/report') return { kind: 'none', reason: 'Not a delivery status or feedback report.' };
  const part = (...types: string[]) => message.parts.find((p) => types.includes(p.mimeType.toLowerCase()));
  if (reportType === 'delivery-status' || reportType === 'global-delivery-status') {
    const status = part('message/delivery-status', 'message/global-delivery-status');
    return status ? deliveryOutcome(status.content) : { kind: 'none', reason: 'The report has no delivery status.' };
  }
  if (reportType === 'feedback-report') {
    const feedback = part('message/feedback-report');
    return feedback ? feedbackOutcome(feedback.content) : { kind: 'none', reason: 'The report has no feedback part.' };
  }
  return { kind: 'none', reason: `Report type "${clip(reportType ?? '')}" is not read.` };
}
