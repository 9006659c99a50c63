import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { IMAGE_TYPES, MAX_IMAGE_BYTES, MessageResponse, PresignRequest, PresignResponse } from '../../contracts';
import { authenticate, authOf } from '../../auth';
import { badRequest, notFound } from '../../errors';
import { bearer, errorResponses } from '../../lib/openapi';
import { isImageType } from './file-keys';
import { FILES_ROUTE, LocalStorage } from './local-storage';
import { uploadOwnerOf } from './upload-owner';
import type { UploadRow } from './upload-rows';

const tags = ['files'];
const NO_FILE = 'File not found.';

/** Query of a signed PUT URL, read as sent (missing or malformed means refused, 403, not a 400). */
function signedQuery(query: unknown): { expires?: string; signature?: string } {
  const pick = (name: string) => {
    const value: unknown = typeof query === 'object' && query !== null ? Reflect.get(query, name) : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  return { expires: pick('expires'), signature: pick('signature') };
}

/** The file key of a `/files/*` path. */
function fileKeyParam(params: unknown): string {
  const value: unknown = typeof params === 'object' && params !== null ? Reflect.get(params, '*') : undefined;
  return typeof value === 'string' ? value : '';
}

/**
 * Image uploads (spec section 7): POST /v1/files/s3-presigned-url, and with the local storage the
 * signed PUT and the GET of /files/<fileKey>.
 */
export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { storage } = app.deps;

  app.post(
    '/v1/files/s3-presigned-url',
    {
      // The community page's logo and background, the template designer's images and every member's
      // own avatar (Your Profile) go through the same upload: any signed-in user. A tenant user's upload
      // is the tenant's; a user without a tenant (a global admin) uploads their own avatar (upload-owner.ts).
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: 'A URL to upload one image to',
        description:
          `Any signed-in user (a tenant user's upload is the tenant's; a user without a tenant owns theirs). \`type\` is one of ${IMAGE_TYPES.join(', ')}. PUT the image (at most ` +
          `${MAX_IMAGE_BYTES} bytes) to \`url\` with that Content-Type and no Authorization, once, before it ` +
          'expires; then save `fileUrl` as the logo, background, a template image or your avatar.',
        body: PresignRequest,
        response: { 200: PresignResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const { type } = req.body;
      if (!isImageType(type)) {
        throw badRequest('Invalid input', { type: [`Upload a PNG, JPEG, GIF or WebP image.`] });
      }
      return storage.presign(uploadOwnerOf({ tenantId: auth.tenantId, userId: auth.user.id }), type);
    },
  );

  if (!(storage instanceof LocalStorage)) return;
  const local = storage;
  const admitted = new WeakMap<FastifyRequest, UploadRow>();

  // The PUT takes the raw image: its own parser, in this plugin only, up to MAX_IMAGE_BYTES (413 above).
  app.addContentTypeParser([...IMAGE_TYPES], { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES }, (_req, body, done) =>
    done(null, body),
  );

  app.put(
    `${FILES_ROUTE}/*`,
    {
      bodyLimit: MAX_IMAGE_BYTES,
      // Checked before the body is read: a refused PUT never uploads its bytes anywhere.
      onRequest: async (req) => {
        admitted.set(
          req,
          await local.admit(fileKeyParam(req.params), signedQuery(req.query), req.headers['content-type']),
        );
      },
      schema: {
        tags,
        summary: 'Upload an image to a presigned URL',
        description:
          'No Authorization: the URL is the permission (signed, single use, expiring, bound to its Content-Type). ' +
          'The bytes must be the declared image type.',
        response: { 200: MessageResponse, ...errorResponses(400, 403, 413, 415) },
      },
    },
    async (req) => {
      const row = admitted.get(req);
      if (!row) throw new Error('PUT /files: the upload was not admitted');
      if (!Buffer.isBuffer(req.body)) throw badRequest('Send the image as the request body.');
      await local.store(row, req.body);
      return { message: 'File stored.' };
    },
  );

  app.get(
    `${FILES_ROUTE}/*`,
    {
      schema: {
        tags,
        summary: 'A stored image',
        description:
          'Public: community logos and backgrounds are shown on the console and on public pages. ' +
          'The stored bytes with their content type; 404 `{message}` for any other path.',
      },
    },
    async (req, reply) => {
      const file = await local.open(fileKeyParam(req.params));
      if (!file) throw notFound(NO_FILE);
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Length', String(file.size))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .send(createReadStream(file.path));
    },
  );
};
