/**
 * Events in (spec section 2, engagement/emails: "a bounce/complaint webhook (HMAC-signed, a documented
 * JSON body) for the mail provider"): POST /v1/mail-events. No session: the body is signed.
 *
 * Request: `Content-Type: application/json`, header `X-Signature: sha256=<hex>` where `<hex>` is the
 * HMAC-SHA256 of the raw body bytes under MAIL_EVENTS_SECRET. Body (MailEventsIn), 1 to 1000 events:
 *
 *     { "events": [
 *         { "type": "bounce", "recipient_id": "k3x9", "bounce_type": "hard",
 *           "detail": "550 5.1.1 user unknown", "at": "2026-05-01T10:00:00Z" },
 *         { "type": "complaint", "message_id": "<k3x9.abc@mail.example>" } ] }
 *
 * - `recipient_id`: the `X-Recipient-Id` header of the sent message; or `message_id`: its Message-ID
 *   (looked up through the recipient id it starts with, then compared whole);
 * - a hard bounce (the default) marks the recipient and the contact 'bounced' (never sent to again);
 *   a soft bounce is recorded only; a complaint marks the contact 'complained';
 * - repeats are harmless (once per recipient and type); unknown recipients are ignored.
 *
 * Answers: 200 `{accepted, ignored}`; 401 when the signature is missing or wrong; 400 with field
 * errors when the body is malformed; 404 when MAIL_EVENTS_SECRET is not set (the webhook is off).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { MailEventsIn } from '../../contracts';
import { badRequest, HttpError, INVALID_INPUT, notFound, type FieldErrors } from '../../errors';
import { bodyProblem } from '../../lib/json-body';
import { errorResponses, noSession } from '../../lib/openapi';
import { recordComplaint, recordHardBounce, recordSoftBounce, trackedRecipient, type TrackedRecipient } from './record';
import type { Database } from '../../db/index';
import { recipientOfToken } from './recipient-token';

export const MailEventsAnswer = z.object({ accepted: z.int(), ignored: z.int() });

const BAD_SIGNATURE = 'The signature is missing or wrong.';

/** `sha256=<hex>` of the raw body under the secret, compared in constant time. */
export function signatureMatches(secret: string, raw: Buffer, header: string | undefined): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec((header ?? '').trim());
  if (!match?.[1]) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(match[1], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The recipient an event names: by X-Recipient-Id (the opaque token, tracking/recipient-token.ts, or
 * the base-36 row id of messages sent before it), or by a Message-ID that starts with it.
 */
async function recipientOfEvent(
  db: Database,
  secret: string,
  event: { recipient_id?: string | undefined; message_id?: string | undefined },
): Promise<TrackedRecipient | null> {
  const base36 = /^[0-9a-z]{1,13}$/;
  if (event.recipient_id !== undefined) {
    const given = event.recipient_id.trim();
    const byToken = recipientOfToken(secret, given);
    if (byToken !== null) return trackedRecipient(db, byToken);
    const raw = given.toLowerCase();
    if (!base36.test(raw)) return null;
    const id = parseInt(raw, 36);
    return Number.isSafeInteger(id) && id > 0 ? trackedRecipient(db, id) : null;
  }
  if (event.message_id !== undefined) {
    const bare = event.message_id.trim().replace(/^<|>$/g, '');
    const lead = /^([0-9a-z]{1,13})[.@]/.exec(bare.toLowerCase());
    if (!lead?.[1]) return null;
    const id = parseInt(lead[1], 36);
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    const r = await trackedRecipient(db, id);
    const stored = r?.messageId?.trim().replace(/^<|>$/g, '');
    return r && stored === bare ? r : null;
  }
  return null;
}

export const mailEventRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, clock } = app.deps;
  const secret = config.campaigns.mailEventsSecret;
  const verified = new WeakSet<FastifyRequest>();

  // The signature covers the raw bytes: this plugin reads JSON itself (these routes only).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (!secret || !signatureMatches(secret, bytes, req.headers['x-signature']?.toString())) {
      done(new HttpError(401, BAD_SIGNATURE));
      return;
    }
    verified.add(req);
    let value: unknown;
    try {
      value = JSON.parse(utf8.decode(bytes));
    } catch {
      done(badRequest('The request body is not valid JSON.'));
      return;
    }
    const problem = bodyProblem(value);
    if (problem) done(badRequest(INVALID_INPUT, problem));
    else done(null, value);
  });

  app.post(
    '/v1/mail-events',
    {
      config: { cors: false },
      // The webhook is off without a secret; a request without a (JSON) body was never verified.
      onRequest: async () => {
        if (!secret) throw notFound();
      },
      preValidation: async (req) => {
        if (!verified.has(req)) throw new HttpError(401, BAD_SIGNATURE);
      },
      schema: {
        security: noSession,
        tags: ['campaigns'],
        summary: 'Bounces and complaints from the mail provider',
        description:
          'No session. Header `X-Signature: sha256=<hex>`: HMAC-SHA256 of the raw body under MAIL_EVENTS_SECRET ' +
          '(401 when missing or wrong; 404 when MAIL_EVENTS_SECRET is not set). Each event names its recipient by ' +
          '`recipient_id` (the X-Recipient-Id header of the sent message) or `message_id`. A hard bounce (default) ' +
          'marks the recipient and the contact bounced; a soft bounce is recorded only; a complaint marks the ' +
          'contact complained. Repeats change nothing; unknown recipients are counted as ignored.',
        body: MailEventsIn,
        response: { 200: MailEventsAnswer, ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => {
      const errors: FieldErrors = {};
      const times = req.body.events.map((e, i) => {
        if (e.at === undefined) return clock();
        const at = new Date(e.at);
        if (Number.isNaN(at.getTime())) errors[`events.${i}.at`] = ['Give the time as an ISO 8601 date and time.'];
        return at;
      });
      req.body.events.forEach((e, i) => {
        if (e.recipient_id === undefined && e.message_id === undefined)
          errors[`events.${i}.recipient_id`] = ['Give recipient_id or message_id.'];
      });
      if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
      let accepted = 0;
      let ignored = 0;
      for (const [i, e] of req.body.events.entries()) {
        const r = await recipientOfEvent(db, config.campaigns.trackingSecret, e);
        if (!r) {
          ignored++;
          continue;
        }
        const at = times[i] ?? clock();
        const detail = e.detail ?? null;
        if (e.type === 'complaint') await recordComplaint(db, r, at, detail);
        else if (e.bounce_type === 'soft') await recordSoftBounce(db, r, at, detail);
        else await recordHardBounce(db, r, at, detail);
        accepted++;
      }
      return { accepted, ignored };
    },
  );
};
