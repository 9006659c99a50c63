/**
 * The social icons (gateway/static/social/*.png, made by scripts/social-icons.ts): public, no
 * authorization, cacheable, loadable from any origin (mail clients, the designer's canvas).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { GATEWAY_ROOT } from '../config';
import { notFound } from '../errors';

export const SOCIAL_ICON_DIR = path.join(GATEWAY_ROOT, 'static', 'social');

interface Icon {
  png: Buffer;
  etag: string;
}

function readIcons(): Map<string, Icon> {
  const icons = new Map<string, Icon>();
  for (const file of fs.readdirSync(SOCIAL_ICON_DIR)) {
    if (!file.endsWith('.png')) continue;
    const png = fs.readFileSync(path.join(SOCIAL_ICON_DIR, file));
    icons.set(file, { png, etag: `"${createHash('sha256').update(png).digest('base64url').slice(0, 16)}"` });
  }
  return icons;
}

export const staticRoutes: FastifyPluginAsyncZod = async (app) => {
  const icons = readIcons();
  app.get(
    '/static/social/:file',
    {
      schema: {
        tags: ['templates'],
        summary: 'A social network icon (PNG) for e-mails',
        params: z.object({ file: z.string().check(z.maxLength(64)) }),
        hide: true,
      },
    },
    async (req, reply) => {
      const icon = icons.get(req.params.file);
      if (!icon) throw notFound();
      reply
        .header('Cache-Control', 'public, max-age=86400')
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .header('Access-Control-Allow-Origin', '*')
        .header('ETag', icon.etag)
        .type('image/png');
      if (req.headers['if-none-match'] === icon.etag) return reply.code(304).send();
      return reply.send(icon.png);
    },
  );
};
