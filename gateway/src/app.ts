import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { AREAS, createDeps } from './composition';
import type { Config } from './config';
import type { Database } from './db/index';
import { installErrorHandling } from './errors';
import { SESSION_VERSION_HEADER } from './auth/index';
import { keyScopesOfRoute } from './api-keys/index';
import type { JobRunner } from './jobs/index';
import { BackgroundTasks } from './lib/background';
import { installAdmission } from './lib/admission';
import { requestsRunningSignal } from './db/storage';
import { installJsonBodyParser } from './lib/json-body';
import { documentObject, documentTransform } from './lib/openapi';
import { installZodMessages } from './lib/zod-messages';
import type { Mailer } from './mail/mailer';

export interface BuildOptions {
  db: Database;
  config: Config;
  /** Defaults to SMTP or the local outbox, per config. */
  mailer?: Mailer;
  /** Declares more queues on the job runner before it starts (tests). */
  extraJobs?: (jobs: JobRunner) => void;
  /** The time the services read (billing periods, due changes); a fixed clock in tests. */
  clock?: () => Date;
}

const DOCS_PREFIX = '/docs';
/**
 * The API reference's CSP: its own files only (it works offline), no inline script, no framing; its
 * "Try it out" calls this gateway (itself, and its public address when that is another origin).
 */
const docsCsp = (publicUrl: string) =>
  [
    "default-src 'self'",
    `connect-src 'self' ${new URL(publicUrl).origin}`,
    "base-uri 'self'",
    "font-src 'self' data:",
    "frame-ancestors 'none'",
    "img-src 'self' data:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "form-action 'self'",
  ].join('; ');

/** The gateway as a Fastify instance, not yet listening (tests and benchmarks build their own). */
export async function buildApp({
  db,
  config,
  mailer,
  extraJobs,
  clock = () => new Date(),
}: BuildOptions): Promise<FastifyInstance> {
  installZodMessages();
  const requestLogging = config.logLevel === 'debug' || config.logLevel === 'trace';
  const { trustProxy } = config;
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    // A hop count trusts that many proxies from the socket's side (proxy-addr's hop rule), no more.
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    // One line per request only when debugging (it costs throughput); failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: !requestLogging }),
    // Without request logging, requests log through the gateway's logger itself (the error handler
    // names the request id): a child logger per request costs CPU on every small request
    // (bench/README.md, "The session check's hot path").
    ...(requestLogging ? {} : { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  // JSON only: a text/plain body is a wrong content type (415), not a string to validate.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);

  const background = new BackgroundTasks((error) => app.log.error({ err: error }, 'background task failed'));
  // PGlite belongs to this process: no other process can work its queues, so WORKERS=off is ignored there.
  const workers = config.jobs.workers || !config.databaseUrl;
  if (!config.jobs.workers && !config.databaseUrl)
    app.log.warn('WORKERS=off needs DATABASE_URL: jobs run in the gateway');
  // The services, built once (src/composition.ts) and handed to every area through `app.deps` (no area builds one).
  const deps = createDeps({ db, config, log: app.log, workers, mailer, clock, background, extraJobs });
  const { jobs } = deps;
  app.decorate('deps', deps);
  app.addHook('onClose', () => background.drain());
  // Background work (imports, billing's due changes, ...): the runner starts once the app is ready and
  // stops on close (jobs in hand finish their step; an import goes back to the queue).
  app.addHook('onReady', () => jobs.start());
  // Each area's own decorations and app-wide hooks (auth's request.auth, its caches' listeners, ...).
  for (const area of AREAS) area.decorate?.(app);
  app.addHook('onClose', () => jobs.stop());
  // A callback hook, not an async one: it runs on every answer and a promise per answer costs throughput.
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    if (req.url.startsWith('/v1/')) reply.header('Cache-Control', 'no-store');
    // Spec section 4 (refreshing permissions): every answer to a signed-in caller says which access it
    // was decided with, so the console re-verifies when its user's access changed.
    if (req.auth) reply.header(SESSION_VERSION_HEADER, req.auth.accessVersion);
    done(null, payload);
  });

  // Every request waits its turn (per tenant, in order of arrival) before its handler; 503 when saturated.
  // While requests run, background work gives way to them where the database needs telling (db/storage.ts).
  installAdmission(app, config.admission, { onRunning: requestsRunningSignal(db) });

  await app.register(cors, {
    origin: config.consoleOrigins,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
    exposedHeaders: ['Retry-After', SESSION_VERSION_HEADER],
    maxAge: 600,
  });

  // Answers above 1 KiB (a page of contacts, the OpenAPI document) are compressed by Accept-Encoding:
  // brotli at a quality fit for answers made per request, else gzip. Streams (CSV exports) too.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Community Console API',
        description:
          'The gateway behind the community console. Authenticate with `POST /v1/auth/login`, then send ' +
          "`Authorization: Bearer <token>`; or, from your own back end, with an API key made on the console's " +
          'API Access page: `Authorization: Bearer ck_live_…` (scheme `apiKey`). Each operation says which key ' +
          'scopes may call it (`x-scopes`). Errors are `{message, errors?: {field: [messages]}}`.',
        version: '1.0.0',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.onboarding.publicUrl, description: 'This gateway' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A session token.' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'ck_live_<43 base62 characters>',
            description:
              'An API key (API Access page). Scopes: full, sending, contacts; each operation lists the ' +
              'scopes that may call it in `x-scopes`. 429 with Retry-After past the per-key rate limit.',
          },
        },
      },
    },
    transform: documentTransform(
      [`${DOCS_PREFIX}`, `${DOCS_PREFIX}/`, `${DOCS_PREFIX}/*`, `${DOCS_PREFIX}/json`, `${DOCS_PREFIX}/yaml`],
      keyScopesOfRoute,
    ),
    transformObject: documentObject,
  });
  // Served from the package's own files: works offline, no CDN.
  // With the console's security headers: a CSP that allows no inline script (swagger-ui's own hashes
  // its inline pieces), and no framing.
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { deepLinking: true },
    staticCSP: true,
    transformStaticCSP: () => docsCsp(config.onboarding.publicUrl),
  });

  // The product areas' routes, each area one plugin (src/<area>/index.ts).
  for (const area of AREAS) if (area.routes) await app.register(area.routes);
  return app;
}
