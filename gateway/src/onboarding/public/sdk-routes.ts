/** The widget SDK (a plain browser script any website loads) and the community pages' stylesheet. */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SDK_FILE } from '../../contracts';
import { GATEWAY_ROOT } from '../../config';
import { COMMUNITY_CSS } from './public-styles';
import { etagOf, noCors, tags } from './context';

export const SDK_PATH = path.join(GATEWAY_ROOT, 'sdk', SDK_FILE);

export const sdkRoutes: FastifyPluginAsyncZod = async (app) => {
  const sdk = fs.readFileSync(SDK_PATH, 'utf8');
  const sdkEtag = etagOf(sdk);
  const cssEtag = etagOf(COMMUNITY_CSS);

  app.get(
    `/sdk/${SDK_FILE}`,
    { config: noCors, schema: { tags, summary: 'The widget SDK (a plain browser script)', hide: true } },
    async (req, reply) => {
      reply
        .header('Access-Control-Allow-Origin', '*')
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .header('Cache-Control', 'public, max-age=300')
        .header('ETag', sdkEtag)
        .type('application/javascript; charset=utf-8');
      if (req.headers['if-none-match'] === sdkEtag) return reply.code(304).send();
      return reply.send(sdk);
    },
  );

  app.get('/public/assets/community.css', { config: noCors, schema: { hide: true } }, async (req, reply) => {
    reply.header('Cache-Control', 'public, max-age=300').header('ETag', cssEtag).type('text/css; charset=utf-8');
    if (req.headers['if-none-match'] === cssEtag) return reply.code(304).send();
    return reply.send(COMMUNITY_CSS);
  });
};
