import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  IMAGE_TYPES,
  MAX_IMAGE_BYTES,
  MessageResponse,
  PresignRequest,
  PresignResponse,
  TemplateImagePage,
  TemplateImageQuery,
} from '../../contracts';
import { authenticate, authOf, requirePermission, tenantOf } from '../../auth';
import { paginate } from '../../lib/pagination';
import { badRequest, notFound } from '../../errors';
import { bearer, errorResponses } from '../../lib/openapi';
import { isImageType } from './file-keys';
import { FILES_ROUTE, LocalStorage } from './local-storage';
import { listStoredUploads, pendingUploads, type UploadRow } from './upload-rows';
import { uploadOwnerOf } from './upload-owner';

const tags = ['files'];
const NO_FILE = 'File not found.';
const TEMPLATE_IMAGE = 'template_image';
/** Recent uploads whose bytes are checked before a listing (S3: one ranged GET each). */
const PENDING_CHECKS = 10;

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
      const { type, purpose, name } = req.body;
      if (!isImageType(type)) {
        throw badRequest('Invalid input', { type: [`Upload a PNG, JPEG, GIF or WebP image.`] });
      }
      const owner = uploadOwnerOf({ tenantId: auth.tenantId, userId: auth.user.id });
      return storage.presign(owner, type, { purpose, name: name?.trim() || undefined });
    },
  );

  app.get(
    '/v1/files/template-images',
    {
      // The designer's image library: the images uploaded for templates, of the caller's tenant only.
      onRequest: requirePermission('templates'),
      schema: {
        tags,
        security: bearer,
        summary: "The tenant's images uploaded for templates",
        description:
          'Permission templates. The stored uploads made with `purpose: template_image`, newest first, ' +
          `at most 100 a page.`,
        querystring: TemplateImageQuery,
        response: { 200: TemplateImagePage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const tenantId = tenantOf(req);
      const { page, perPage } = req.query;
      // With S3 the bytes went straight to the bucket: recent uploads are checked (and marked stored) first.
      if (storage.kind === 's3') {
        for (const fileKey of await pendingUploads(app.deps.db, tenantId, TEMPLATE_IMAGE, PENDING_CHECKS)) {
          await storage.isStored({ tenantId }, fileKey);
        }
      }
      const { rows, total } = await listStoredUploads(app.deps.db, tenantId, TEMPLATE_IMAGE, page, perPage);
      return {
        records: rows.map((row) => ({
          url: storage.addressOf(row.fileKey),
          name: row.name ?? row.fileKey.slice(row.fileKey.lastIndexOf('/') + 1),
          content_type: isImageType(row.contentType) ? row.contentType : 'image/png',
          size: row.size ?? 0,
          uploaded_at: (row.storedAt ?? row.createdAt).toISOString(),
        })),
        pagination: paginate(page, perPage, total),
      };
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
        // The local stand-in for S3: clients get these URLs from POST /v1/files/s3-presigned-url and
        // never build them, as with S3 itself; a wildcard path has no OpenAPI path template.
        hide: true,
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
        hide: true,
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
