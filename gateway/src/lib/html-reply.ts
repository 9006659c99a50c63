import type { FastifyReply } from 'fastify';

/**
 * An HTML page the gateway serves itself (public community pages, double opt-in, checkout, the local
 * billing portal), with the security headers every such page carries: its own CSP (each page family
 * passes one without inline script), no referrer, no framing, not cached.
 */
export function sendHtml(reply: FastifyReply, csp: string, status: number, body: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', csp)
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Frame-Options', 'DENY')
    .header('Cache-Control', 'no-store')
    .send(body);
}
