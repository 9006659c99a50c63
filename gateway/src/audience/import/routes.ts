import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  ImportJob,
  ImportJobPage,
  ImportListQuery,
  MAX_IMPORT_BYTES,
  StartImportBody,
  text,
  type ImportJob as ImportJobWire,
} from '../../contracts';
import { IdParams } from '../../lib/route-params';
import { authOf, requirePermission, tenantOf } from '../../auth';
import {
  cancelImportJob,
  createImportJob,
  failureReport,
  getImportJob,
  listImportJobs,
  startImportJob,
  toImportJob,
} from './import-jobs';
import { enqueueImport, importFilePath, IMPORTS_DIR } from './import-runner';
import { saveUpload, UploadRefused, UPLOAD_MESSAGES } from './import-upload';
import { releaseUpload, reserveUpload, UPLOAD_LIMIT_MESSAGE } from './upload-quota';
import { HttpError, notFound } from '../../errors';
import { foreignKeyViolation } from '../../lib/db-helpers';
import { bearer, errorResponses } from '../../lib/openapi';
import { sendStreamedFile } from '../../lib/streamed-file';

const tags = ['imports'];
const TENANT_GONE = 'This community no longer exists.';
const permission = requirePermission('manage_contacts');

const UploadQuery = z.object({
  fileName: text(255).check(z.trim(), z.minLength(1, 'Give the file name.')),
});

/** Refusals while a body may still be arriving: answer, then close the connection. */
function refused(status: number, message: string): HttpError {
  return new HttpError(status, message, undefined, { Connection: 'close' });
}

/** The body written to `file`: its size, or the 4xx saying why not. */
async function receive(source: Readable, file: string, limit: number): Promise<number> {
  try {
    return await saveUpload(source, file, limit);
  } catch (error) {
    if (error instanceof UploadRefused) throw refused(error.statusCode, error.message);
    // The part file was swept while the upload had stalled for long (import-runner.ts cleanupImports).
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      throw refused(400, UPLOAD_MESSAGES.interrupted);
    }
    throw error;
  }
}

export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, jobs } = app.deps;
  const importsDir = path.join(config.dataDir, IMPORTS_DIR);

  // The upload takes the raw file in any content type (browsers send text/csv, application/vnd.ms-excel
  // or application/octet-stream): in its own context, the body is left unread for the handler to stream.
  const uploadRoute: FastifyPluginAsyncZod = async (upload) => {
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', (_req, _payload, done) => done(null));

    upload.post(
      '',
      {
        onRequest: permission,
        schema: {
          tags,
          security: bearer,
          summary: 'Upload a CSV file to import',
          description:
            'Permission manage_contacts. The body is the file itself (any content type, at most 512 MB), ' +
            "`fileName` its name. 413 also when the tenant's import files (uploading, waiting to be started, " +
            'importing) would exceed its upload limit (1 GB by default). ' +
            'Answers the job with status `uploaded`; start it with `POST /v1/imports/{id}/start`. ' +
            'An empty file or one that is not text (an image, a spreadsheet, a PDF...) is refused.',
          querystring: UploadQuery,
          response: { 201: ImportJob, ...errorResponses(400, 401, 403, 413) },
        },
      },
      async (req, reply) => {
        const tenantId = tenantOf(req);
        const header = req.headers['content-length'];
        const declared = header === undefined ? null : Number(header);
        if (declared !== null && declared > MAX_IMPORT_BYTES) {
          throw refused(413, UPLOAD_MESSAGES.tooLarge(MAX_IMPORT_BYTES));
        }
        // What this upload may write counts against the tenant's limit before its first byte is stored.
        const id = randomUUID();
        const bytes = declared ?? MAX_IMPORT_BYTES;
        const limit = config.imports.tenantLimitBytes;
        if (!(await reserveUpload(db, { id, tenantId, bytes }, limit))) throw refused(413, UPLOAD_LIMIT_MESSAGE(limit));
        const file = path.join(config.dataDir, importFilePath(id));
        let stored = false;
        try {
          await fs.mkdir(importsDir, { recursive: true });
          // Written as `<file>.part` (removed on any refusal or cut-off) and renamed once whole.
          const totalBytes = await receive(req.raw, file, bytes);
          stored = true;
          const row = await createImportJob(db, {
            id,
            tenantId,
            userId: authOf(req).user.id,
            fileName: req.query.fileName,
            filePath: importFilePath(id),
            totalBytes,
          });
          return reply.code(201).send(toImportJob(row));
        } catch (error) {
          // No job was created: no file stays behind (the housekeeping sweep removes what a crash left).
          if (stored) await fs.rm(file, { force: true });
          // The tenant was deleted while its file arrived.
          if (foreignKeyViolation(error)) throw notFound(TENANT_GONE);
          throw error;
        } finally {
          // Nothing left to release when the upload became a job.
          await releaseUpload(db, id);
        }
      },
    );
  };
  await app.register(uploadRoute);

  app.get(
    '',
    {
      onRequest: permission,
      schema: {
        tags,
        security: bearer,
        summary: "The tenant's imports",
        description: 'Permission manage_contacts. Newest first by default; the search matches file names.',
        querystring: ImportListQuery,
        response: { 200: ImportJobPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listImportJobs(db, tenantOf(req), req.query),
  );

  app.get(
    '/:id',
    {
      onRequest: permission,
      schema: {
        tags,
        security: bearer,
        summary: 'One import, with its progress',
        params: IdParams,
        response: { 200: ImportJob, ...errorResponses(401, 403, 404) },
      },
    },
    async (req): Promise<ImportJobWire> => toImportJob(await getImportJob(db, tenantOf(req), req.params.id)),
  );

  app.post(
    '/:id/start',
    {
      onRequest: permission,
      schema: {
        tags,
        security: bearer,
        summary: 'Start an uploaded import',
        description:
          'Permission manage_contacts. `mapping` gives each column a target (`email`, `wallet`, `first_name`, ' +
          '`last_name`, `status`, `attr:<key>` or null), each at most once, e-mail or wallet required. ' +
          '`listId` or `newListName` (created) is the list every imported contact joins. ' +
          '`mode`: `update` existing contacts with the non-empty mapped values, or `skip` them. ' +
          '409 when the import was already started.',
        params: IdParams,
        body: StartImportBody,
        response: { 200: ImportJob, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      const row = await startImportJob(db, tenantOf(req), req.params.id, req.body);
      // The job that runs it (if this send is lost, the start-up and housekeeping sweeps send it).
      await enqueueImport(jobs, row.id);
      return toImportJob(row);
    },
  );

  app.post(
    '/:id/cancel',
    {
      onRequest: permission,
      schema: {
        tags,
        security: bearer,
        summary: 'Cancel a queued or running import',
        description:
          'Permission manage_contacts. Rows already imported stay. 409 when the import is not queued or running.',
        params: IdParams,
        response: { 200: ImportJob, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req) => {
      const row = await cancelImportJob(db, tenantOf(req), req.params.id);
      await fs.rm(path.join(config.dataDir, row.filePath), { force: true });
      return toImportJob(row);
    },
  );

  app.get(
    '/:id/failures',
    {
      onRequest: permission,
      schema: {
        tags,
        security: bearer,
        summary: 'The failed rows of an import, as CSV',
        description:
          'Permission manage_contacts. `text/csv` with the columns row (the line of the file), reason and raw ' +
          '(the row as read, at most 1,000 characters). Cells that a spreadsheet would run as formulas are escaped.',
        params: IdParams,
        // No response schema: the 200 body is a stream (errors are the usual {message, errors?}).
        produces: ['text/csv'],
      },
    },
    async (req, reply) => {
      const job = await getImportJob(db, tenantOf(req), req.params.id);
      return sendStreamedFile(reply, failureReport(db, job.id), {
        contentType: 'text/csv; charset=utf-8',
        fileName: `import-${job.id}-failures.csv`,
      });
    },
  );
};
