import type { FastifyInstance } from 'fastify';

/** Methods whose requests carry no body: an empty one is no body, whatever the Content-Type says. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/**
 * The JSON body parser: Fastify's own (prototype poisoning refused), except that an empty body on a
 * GET, HEAD, DELETE or OPTIONS is no body. curl scripts, Postman and many SDKs send
 * `Content-Type: application/json` on every request, bodiless ones included. A malformed non-empty
 * body is still a 400, and so is an empty one on a method that needs a body.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' && BODYLESS_METHODS.has(req.method)) {
      done(null, undefined);
      return;
    }
    parseJson(req, typeof body === 'string' ? body : body.toString('utf8'), done);
  });
}
