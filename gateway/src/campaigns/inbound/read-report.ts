/**
 * Reads what the receiver needs of a message, and no more (docs/sending.md, "Bounces and
 * complaints"): its top headers (Content-Type, Subject) and, of a `multipart/report` (RFC 6522), the
 * machine-readable report part. A report's parts come in order: the human-readable text, the report,
 * then the returned message (section 3), which can be most of the message's size and is never read.
 *
 * postal-mime decodes the pieces (header encodings, transfer encodings), but only small ones: the top
 * header block, and the parts' own header blocks and the report part, each at most MAX_PIECE bytes.
 * Finding the parts is a scan for the boundary (native `indexOf`), so the work on the event loop
 * stays small for the largest message the receiver takes.
 */
import PostalMime from 'postal-mime';
import type { ReportMessage, ReportPart } from './reports';

/** The largest header block or report part decoded. */
const MAX_PIECE = 64 * 1024;
/** Parts looked at before the report part is given up on. */
const MAX_PARTS = 10;

const REPORT_TYPES = new Set(['message/delivery-status', 'message/global-delivery-status', 'message/feedback-report']);

export interface ReadMessage extends ReportMessage {
  subject: string;
  parts: ReportPart[];
}

export class UnreadableMessage extends Error {}

/** Where the header block ends (the blank line), or -1. */
function headerEnd(text: string, from = 0): { at: number; body: number } | null {
  const crlf = text.indexOf('\r\n\r\n', from);
  const lf = text.indexOf('\n\n', from);
  if (crlf < 0 && lf < 0) return null;
  if (lf >= 0 && (crlf < 0 || lf < crlf)) return { at: lf, body: lf + 2 };
  return { at: crlf, body: crlf + 4 };
}

function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,200})"|([^;\s]{1,200}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/**
 * The parts of a multipart body (each with its own headers; RFC 2046 section 5.1.1: a delimiter line
 * starts with `--boundary`, the line break before it belongs to it, `--boundary--` closes), at most
 * MAX_PARTS.
 */
function partsOf(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const find = (from: number) => {
    const i = body.indexOf(`\n${delimiter}`, from);
    return i < 0 ? -1 : i + 1;
  };
  const parts: string[] = [];
  let at = body.startsWith(delimiter) ? 0 : find(0);
  while (at >= 0 && parts.length < MAX_PARTS) {
    if (body.startsWith(`${delimiter}--`, at)) break;
    const lineEnd = body.indexOf('\n', at);
    if (lineEnd < 0) break;
    const next = find(lineEnd);
    parts.push(body.slice(lineEnd + 1, next < 0 ? body.length : next - 1).replace(/\r$/, ''));
    at = next;
  }
  return parts;
}

/** The Content-Type value of a part's header block (unfolded), lower case, without parameters. */
function partType(headers: string): string {
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  const match = /^content-type[ \t]*:[ \t]*([^;\r\n]*)/im.exec(unfolded);
  return (match?.[1] ?? 'text/plain').trim().toLowerCase();
}

/** The message's top Content-Type and Subject and its report part (if it has one within the limits). */
export async function readReport(raw: Buffer): Promise<ReadMessage> {
  // latin1 keeps every byte as one character: offsets found here are byte offsets.
  const text = raw.toString('latin1');
  const top = headerEnd(text) ?? { at: text.length, body: text.length };
  if (top.at > MAX_PIECE) throw new UnreadableMessage('header block too large');
  let head;
  try {
    head = await PostalMime.parse(Buffer.from(`${text.slice(0, top.at)}\r\n\r\n`, 'latin1'), {
      maxHeadersSize: MAX_PIECE,
    });
  } catch {
    throw new UnreadableMessage('header block unreadable');
  }
  const contentType = head.headers.find((h) => h.key === 'content-type')?.value ?? 'text/plain';
  const read: ReadMessage = { contentType, subject: head.subject ?? '', parts: [] };
  const boundary = /^\s*multipart\/report\b/i.test(contentType) ? boundaryOf(contentType) : null;
  if (!boundary) return read;
  for (const part of partsOf(text.slice(top.body), boundary)) {
    const end = headerEnd(part);
    const type = partType(end ? part.slice(0, end.at) : part);
    if (!REPORT_TYPES.has(type)) continue;
    if (part.length > MAX_PIECE) break;
    try {
      const decoded = await PostalMime.parse(Buffer.from(part, 'latin1'), { attachmentEncoding: 'utf8' });
      const found: ReportPart[] = decoded.attachments.map((a) => ({
        mimeType: a.mimeType,
        content: typeof a.content === 'string' ? a.content : '',
      }));
      read.parts.push(...found);
    } catch {
      throw new UnreadableMessage('report part unreadable');
    }
    break;
  }
  return read;
}
