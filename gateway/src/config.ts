import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_OFF_LOOP, type OffLoopSettings } from './lib/off-loop/pool';
import { alignmentWarning, loadPlatformDkim, PLATFORM_SIGNING_OFF, type PlatformDkim } from './mail/platform-dkim';
import { onchainConfigOf, type OnchainConfig } from './lib/chain-settings';

/** Root of the gateway package (where package.json lives). */
export const GATEWAY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The password-guessing limits (auth/guess-policy.ts applies them). */
export interface GuessPolicy {
  /** The sliding window the limits count in. */
  windowMs: number;
  /** Failed checks per account and window, from all addresses together. */
  accountMax: number;
  /** Of those, kept for known-good addresses (strangers stop at accountMax - trustedReserve). */
  trustedReserve: number;
  /** Failed checks a known-good address may make on the account (typos) and stay trusted. */
  trustedSlips: number;
  /** Failed checks from one address (on any accounts) per window before strangers there are refused. */
  addressMax: number;
  /** Failures of one address on an account before its delays start. */
  freeFailures: number;
  /** The first delay; each further failure of that address on the account doubles it. */
  baseDelayMs: number;
}

/** The sign-in throttle's settings (auth/throttle.ts). */
export interface ThrottleConfig extends GuessPolicy {
  /** An address stays known-good for an account this long after its last sign-in from there. */
  knownAddressMs: number;
}

/** CSV import jobs (see audience/import/import-runner.ts). */
export interface ImportConfig {
  /** Rows per batch: each batch is one transaction and one checkpoint. */
  batchRows: number;
  /** One job runs an import for about this long, then sends the next job to go on (a slice; see import-runner.ts). */
  sliceMs: number;
  /** Uploaded files whose import was never started are deleted after this long. */
  uploadTtlMs: number;
  /** A tenant's import files on disk (in flight, waiting, importing) stay within this many bytes. */
  tenantLimitBytes: number;
}

/** The job runner (jobs/runner.ts): all background work. */
export interface JobsConfig {
  /** Run the queues' handlers in the gateway process (WORKERS=off: only in `pnpm run workers`). */
  workers: boolean;
  /** How often an idle worker polls (LISTEN/NOTIFY wakes it at once; polling is the backstop). */
  pollSeconds: number;
  /** Maintenance pass: expired and heartbeat-less jobs are retried, cron occurrences sent. */
  superviseSeconds: number;
  /** A running job whose worker has not beaten for this long is run again (pg-boss: at least 10). */
  heartbeatSeconds: number;
}

/** Automations' runtime (automations/runner.ts; docs/automations.md). */
export interface AutomationsConfig {
  /** How often the runner looks for triggers and due journeys where workers run (0: never by itself). */
  pollMs: number;
  /** A claimed journey left by a stopped worker is claimed again after this long. */
  leaseSeconds: number;
}

/** Onboarding (spec sections 2 and 4): uploads, the widget SDK and the public sign-up. */
export interface OnboardingConfig {
  /** Where this gateway is reached from browsers (presigned URLs, stored file addresses, public pages). */
  publicUrl: string;
  /** Where widget snippets load the e-mail SDK from (a CDN in production); default: this gateway. */
  sdkBaseUrl: string;
  /** Presigned upload URLs expire after this long. */
  uploadTtlMs: number;
  /** S3 storage when S3_BUCKET is set (AWS presigner); otherwise the gateway's own disk. */
  s3: { bucket: string; region: string; endpoint: string | null; publicBaseUrl: string | null } | null;
  /** Public sign-up limits per fixed window: per client address and per widget. */
  signupWindowMs: number;
  signupAddressMax: number;
  signupWidgetMax: number;
  /** Confirmation links of e-mail sign-ups (double opt-in) expire after this long. */
  signupConfirmTtlMs: number;
}

/** Stripe (spec sections 3, 4 and 9): the official SDK against api.stripe.com, or another host (a local fake in tests). */
export interface StripeConfig {
  secretKey: string;
  /** Verifies the signatures of POST /v1/billing/webhook (required with the secret key). */
  webhookSecret: string;
  /** Unset: the SDK's defaults (api.stripe.com, 443, https). */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** The payment provider: 'stripe' when STRIPE_SECRET_KEY is set, else the local provider. */
export interface BillingConfig {
  provider: 'local' | 'stripe';
  stripe: StripeConfig | null;
}

/**
 * Admission control (lib/admission.ts): requests worked on at once, in all and per tenant (or per
 * client address without a session), how many may wait, and how long, before 503 + Retry-After.
 */
export interface AdmissionConfig {
  /** Requests worked on at once, in all; 0 turns admission control off. */
  concurrency: number;
  /** Requests worked on at once per tenant (or per client address without a session). */
  laneConcurrency: number;
  /** Requests waiting per tenant (or address) before the next one is answered 503 at once. */
  laneQueue: number;
  /** Requests waiting in all before the next one is answered 503 at once. */
  queue: number;
  /** A request that has waited this long is answered 503 (ms). */
  maxWaitMs: number;
  /**
   * Routes whose database work concurrent requests share (`config: { admission: 'shared' }`: the
   * transactional sends, whose reads and writes are group commits): their own lanes, wider, since
   * more requests at once make fewer statements each, not more. In all, and per tenant.
   */
  sharedConcurrency: number;
  sharedLaneConcurrency: number;
}

/** Custom sending domains (domains/): where records are looked up and what they must contain. */
export interface DomainsConfig {
  /** Resolvers asked (DNS_SERVERS, comma list of `host` or `host:port`); null: the system's. */
  dnsServers: string[] | null;
  /** One lookup gives up after this long (DNS_TIMEOUT_MS). */
  dnsTimeoutMs: number;
  /** The SPF record includes this (SENDING_SPF_INCLUDE). */
  spfInclude: string;
  /** The optional tracking CNAME points here (TRACKING_CNAME_TARGET). */
  trackingHost: string;
}

export interface Config {
  port: number;
  host: string;
  /** A PostgreSQL server; null means the embedded PGlite in `pgliteDir`. */
  databaseUrl: string | null;
  dataDir: string;
  /** PGlite data directory, or `memory://` for a throw-away database. */
  pgliteDir: string;
  /** Embedded PGlite: statements (or transactions) that take longer are logged (SLOW_STATEMENT_MS; 0: off). */
  slowStatementMs?: number;
  /** Embedded PGlite: PostgreSQL's shared_buffers (PGLITE_SHARED_BUFFERS, default 16MB; docs/storage.md). */
  pgliteSharedBuffers?: string;
  /** Embedded PGlite: on a thread of its own ('worker', the default) or the gateway's ('main'); PGLITE_THREAD, docs/storage.md. */
  pgliteThread?: PgliteThreadMode;
  /** Embedded PGlite: contacts one tenant may hold (PGLITE_CONTACT_LIMIT, default 100,000; 0: no limit; docs/storage.md). */
  pgliteContactLimit?: number;
  jwtSecret: Uint8Array;
  jwtIssuer: string;
  jwtAudience: string;
  tokenTtlSeconds: number;
  consoleOrigins: string[];
  consoleUrl: string;
  /**
   * Where the sample applet (applets/token-gate) is served; the seed registers its manifest
   * (`<url>/mf-manifest.json`). APPLET_TOKEN_GATE_URL, else http://localhost:APPLET_TOKEN_GATE_PORT (3006).
   */
  sampleAppletUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  outboxDir: string;
  throttle: ThrottleConfig;
  resetTokenTtlMs: number;
  /** How long an e-mailed sign-in link works (auth/sign-in-link.ts). */
  signInLinkTtlMs: number;
  confirmTokenTtlMs: number;
  bodyLimit: number;
  /** Trust X-Forwarded-For (only behind a reverse proxy you control). */
  /**
   * Which X-Forwarded-For entries name the client (Fastify's `trustProxy`): false (the socket's address),
   * a number of proxy hops in front of the gateway, or the proxies' addresses and CIDR ranges.
   */
  trustProxy: false | number | string[];
  logLevel: string;
  imports: ImportConfig;
  jobs: JobsConfig;
  automations: AutomationsConfig;
  onboarding: OnboardingConfig;
  billing: BillingConfig;
  admission: AdmissionConfig;
  /** The worker pool for templates' renders and DKIM signing (off-loop/pool.ts). */
  offLoop: OffLoopSettings;
  campaigns: CampaignsConfig;
  domains: DomainsConfig;
  applets: AppletsConfig;
  webhooks: WebhooksConfig;
  /** Chains and the smart-contract watcher (onchain/settings.ts; docs/onchain.md). */
  onchain: OnchainConfig;
  /**
   * The platform's DKIM key: every message the platform sends is signed with it (domains/platform-key.ts,
   * mail/signing-keys.ts). PLATFORM_DKIM_DOMAIN (default: MAIL_FROM's domain), PLATFORM_DKIM_SELECTOR,
   * PLATFORM_DKIM_PRIVATE_KEY or PLATFORM_DKIM_PRIVATE_KEY_FILE; generated and kept in the data directory
   * outside production. Null with PLATFORM_DKIM=off (the mail server signs).
   */
  platformDkim: PlatformDkim | null;
  /**
   * Requests per second each API key may make, per gateway process (API_KEY_RATE_LIMIT, default 20;
   * 0: no limit), with a burst of API_KEY_RATE_BURST (default twice the rate) after a quiet spell.
   */
  apiKeyRateLimit: { rate: number; burst: number };
}

/** Applet manifests the gateway reads (applets/manifest-fetch.ts; spec section 7). */
export interface AppletsConfig {
  /**
   * APPLETS_ALLOW_PRIVATE_MANIFESTS: read manifests on private, loopback and link-local addresses (a local
   * sample, tests). Default: off when NODE_ENV=production, on otherwise.
   */
  allowPrivateManifests: boolean;
  /** The whole read (every redirect included) ends after this long. */
  manifestTimeoutMs: number;
  /** A larger manifest is refused. */
  manifestMaxBytes: number;
}

/** Outgoing webhooks (webhooks/; docs/webhooks.md). */
export interface WebhooksConfig {
  /**
   * WEBHOOKS_ALLOW_LOOPBACK: endpoints on loopback addresses (127/8, ::1), over http too (tests and local
   * receivers). Every other private or reserved address stays refused. Default off.
   */
  allowLoopback: boolean;
  /**
   * WEBHOOK_RETRY_SECONDS: the delays before each retry, comma-separated seconds. Default 5 s, 5 min,
   * 30 min, 2 h, 5 h, 10 h, 10 h: eight attempts over about 27.6 hours.
   */
  retrySeconds: number[];
  /** WEBHOOK_TIMEOUT_MS: one attempt's whole time (connect, send, answer). Default 10 s. */
  timeoutMs: number;
  /**
   * WEBHOOK_LEASE_SECONDS: how long a process holds the delivery events it took from the outbox before
   * another may take them over (it ended or froze). Default 30 s.
   */
  leaseSeconds: number;
}

export const DEFAULT_WEBHOOK_RETRY_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];

function secondsList(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const values = raw.split(',').map((s) => Number(s.trim()));
  if (values.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new Error(`${name} must be comma-separated non-negative seconds, got "${raw}"`);
  }
  return values;
}

/** A yes/no setting: 1/true/on or 0/false/off; anything else (or unset) is the default. */
function flag(value: string | undefined, fallback: boolean): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(v)) return true;
  if (['0', 'false', 'off', 'no'].includes(v)) return false;
  return fallback;
}

/** Campaign delivery (the e-mails screen, compose and the delivery log; spec section 2). */
export interface CampaignsConfig {
  /** Wallet-only contacts are sent to `<checksummed address>@<this domain>` (WALLET_MAIL_DOMAIN); null: unreachable. */
  walletMailDomain: string | null;
  /** The sender of campaigns until custom domains exist (CAMPAIGN_FROM; default: MAIL_FROM's address). */
  defaultFrom: string;
  /** Where the open pixel, click redirects, unsubscribe and view-in-browser pages are reached (default: the gateway's public URL). */
  trackingUrl: string;
  /** Signs tracking links and unsubscribe tokens (TRACKING_SECRET; default: derived from JWT_SECRET). */
  trackingSecret: string;
  /**
   * The mailto of List-Unsubscribe (UNSUBSCRIBE_MAILBOX; default: `unsubscribe@<bounceDomain>`): mail
   * to it reaches the inbound receiver, whose subject's signed token unsubscribes (campaigns/inbound).
   */
  unsubscribeMailbox: string;
  /**
   * The domain of every campaign message's envelope sender (VERP, one signed address per recipient:
   * campaigns/inbound/verp.ts), where bounces and complaints come back (BOUNCE_DOMAIN; default
   * `bounces.<MAIL_FROM's domain>`). Its MX points at the inbound receiver.
   */
  bounceDomain: string;
  /** The inbound SMTP receiver of bounces, complaints and mailto unsubscribes (campaigns/inbound/receiver.ts). */
  inbound: InboundConfig;
  /** HMAC secret of POST /v1/mail-events (MAIL_EVENTS_SECRET); null: the webhook answers 404. */
  mailEventsSecret: string | null;
  /**
   * SMTP connections kept open by one sending process (SEND_POOL_SIZE, default 32). A connection
   * waits for its recipient's commit between the message's data and its end (exactly once,
   * campaigns/sender/transport.ts), so a sender needs more connections than a plain client for the
   * same throughput (bench/README.md, "SMTP connections per sending process").
   */
  poolSize: number;
  /** Messages per second, all tenants (SEND_RATE_GLOBAL; 0: unlimited) and per tenant (SEND_RATE_TENANT). */
  globalRate: number;
  tenantRate: number;
  /**
   * A sending run's lease (SEND_LEASE_SECONDS, default 8, at least 2): renewed four times a lease; a
   * process that stops renewing (killed, frozen) has its claims taken over by another within about a
   * lease and a quarter (campaigns/sender/lease.ts, docs/sending.md).
   */
  leaseSeconds: number;
  /**
   * Runs of one campaign at once, each with its own lease and SMTP connections, in whichever worker
   * processes take them (SEND_RUNS_PER_CAMPAIGN, default 1): more spreads a large send over several
   * worker processes (docs/scaling.md).
   */
  runsPerCampaign: number;
  /** 4xx answers are retried this many times, backing off from `retryDelaySeconds` (doubling). */
  maxAttempts: number;
  retryDelaySeconds: number;
}

/** The inbound SMTP receiver (docs/sending.md, "Bounces and complaints"). */
export interface InboundConfig {
  /** INBOUND_SMTP_PORT; null (unset or 0): no receiver. `npm start` sets 2525. */
  port: number | null;
  /** INBOUND_SMTP_HOST; default HOST. */
  host: string;
  /** A larger message is refused (INBOUND_MAX_BYTES, default 1 MB; SIZE, RFC 1870). */
  maxBytes: number;
  /** Connections at once (INBOUND_MAX_CLIENTS, default 20). */
  maxClients: number;
  /**
   * INBOUND_TLS_KEY_FILE and INBOUND_TLS_CERT_FILE (PEM): with both, the receiver offers STARTTLS
   * (RFC 3207) with this certificate of the bounce domain; without, it offers none.
   */
  tls: { keyFile: string; certFile: string } | null;
}

export type Env = Record<string, string | undefined>;

/** The receiver's certificate files: both or neither. */
function inboundTls(env: Env): InboundConfig['tls'] {
  const keyFile = env.INBOUND_TLS_KEY_FILE?.trim() ?? '';
  const certFile = env.INBOUND_TLS_CERT_FILE?.trim() ?? '';
  if (!keyFile && !certFile) return null;
  if (!keyFile || !certFile) {
    throw new Error('INBOUND_TLS_KEY_FILE and INBOUND_TLS_CERT_FILE go together: set both, or neither.');
  }
  return { keyFile, certFile };
}

/** 'Name <a@b.c>' -> 'a@b.c'. */
function addressOf(from: string): string {
  const match = /<([^>]+)>/.exec(from);
  return (match?.[1] ?? from).trim();
}

/** BOUNCE_DOMAIN, else `bounces.` and the domain of MAIL_FROM's address. */
function bounceDomainOf(env: Env): string {
  const platform = addressOf(env.MAIL_FROM || 'no-reply@console.test');
  const domain = env.BOUNCE_DOMAIN || `bounces.${platform.slice(platform.lastIndexOf('@') + 1)}`;
  return domain.trim().toLowerCase();
}

export type PgliteThreadMode = 'worker' | 'main';

/** PGLITE_THREAD: where embedded PGlite runs (docs/storage.md). */
function pgliteThreadMode(env: Env): PgliteThreadMode {
  const raw = env.PGLITE_THREAD;
  if (raw === undefined || raw === '' || raw === 'worker') return 'worker';
  if (raw === 'main') return 'main';
  throw new Error(`PGLITE_THREAD must be "worker" or "main", got "${raw}"`);
}

/** A PostgreSQL memory setting such as 16MB (kB, MB or GB). */
function memorySize(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d*(kB|MB|GB)$/.test(raw))
    throw new Error(`${name} must be a size such as 16MB (kB, MB or GB), got "${raw}"`);
  return raw;
}

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return Math.floor(n);
}

function list(raw: string | undefined, fallback: string[]): string[] {
  if (!raw) return fallback;
  return raw
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

/** JWT_SECRET from the environment, else a random one generated once and kept in the data directory. */
function jwtSecret(env: Env, dataDir: string): Uint8Array {
  const fromEnv = env.JWT_SECRET;
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error('JWT_SECRET must be at least 32 characters long');
    return new TextEncoder().encode(fromEnv);
  }
  const file = path.join(dataDir, 'jwt-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
}

function admissionConfig(env: Env): AdmissionConfig {
  // Embedded PGlite runs one query at a time (on its own thread, or this one): a few requests at once keep it busy
  // while others are serialized and sent; a PostgreSQL server has a pool of 10 connections.
  const concurrency = int(env, 'ADMISSION_CONCURRENCY', env.DATABASE_URL ? 16 : 4);
  return {
    concurrency,
    laneConcurrency: Math.max(1, int(env, 'ADMISSION_TENANT_CONCURRENCY', Math.ceil(concurrency / 2))),
    laneQueue: int(env, 'ADMISSION_TENANT_QUEUE', 256),
    queue: int(env, 'ADMISSION_QUEUE', 1000),
    maxWaitMs: Math.max(1, int(env, 'ADMISSION_MAX_WAIT_MS', 1000)),
    sharedConcurrency: Math.max(1, int(env, 'ADMISSION_SHARED_CONCURRENCY', 128)),
    sharedLaneConcurrency: Math.max(1, int(env, 'ADMISSION_SHARED_TENANT_CONCURRENCY', 64)),
  };
}

function billingConfig(env: Env): BillingConfig {
  const secretKey = env.STRIPE_SECRET_KEY;
  if (!secretKey) return { provider: 'local', stripe: null };
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET;
  if (!webhookSecret) {
    // Without the webhook, downgrades Stripe applies at the period end would never reach the tenant's plan.
    throw new Error('STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY');
  }
  const protocol = env.STRIPE_API_PROTOCOL || undefined;
  if (protocol !== undefined && protocol !== 'http' && protocol !== 'https') {
    throw new Error(`STRIPE_API_PROTOCOL must be http or https, got "${protocol}"`);
  }
  const stripe: StripeConfig = { secretKey, webhookSecret };
  if (env.STRIPE_API_HOST) stripe.host = env.STRIPE_API_HOST;
  if (env.STRIPE_API_PORT) stripe.port = int(env, 'STRIPE_API_PORT', 443);
  if (protocol) stripe.protocol = protocol;
  return { provider: 'stripe', stripe };
}

/**
 * TRUST_PROXY: unset, '0' or 'false': the socket's address; a number N (or 'true', one): N reverse
 * proxies of ours stand in front, so the client is the N-th X-Forwarded-For entry from the right;
 * otherwise a comma-separated list of the proxies' addresses or CIDR ranges. Never "trust every hop":
 * the client writes the leftmost entries itself, and a client choosing its address would get a fresh
 * one for the sign-in limits on every request (docs/auth.md).
 */
export function trustProxyOf(value: string | undefined): false | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v === '0' || v === 'false') return false;
  if (v === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * RFC 8058: the one-click List-Unsubscribe link must be https. The links of campaign mail start with
 * the tracking address (TRACKING_URL, default GATEWAY_PUBLIC_URL): in production an http address
 * refuses to start; elsewhere `configWarnings` says so at start.
 */
const HTTP_TRACKING = (url: string) =>
  `TRACKING_URL (or GATEWAY_PUBLIC_URL) is ${url}: campaign mail's one-click unsubscribe link must be https (RFC 8058), ` +
  'and mailbox providers ignore an http one.';

function trackingUrlOf(env: Env, publicUrl: string): string {
  const url = (env.TRACKING_URL || publicUrl).replace(/\/+$/, '');
  if (env.NODE_ENV === 'production' && !/^https:\/\//i.test(url)) throw new Error(HTTP_TRACKING(url));
  return url;
}

function apiKeyRateLimitOf(env: Env): { rate: number; burst: number } {
  const raw = env.API_KEY_RATE_LIMIT;
  const rate = raw === undefined || raw === '' ? 20 : Number(raw);
  if (!Number.isFinite(rate) || rate < 0)
    throw new Error(`API_KEY_RATE_LIMIT must be a non-negative number, got "${raw}"`);
  return { rate, burst: Math.max(1, int(env, 'API_KEY_RATE_BURST', Math.ceil(rate * 2))) };
}

/** What a started gateway should tell its operator about its settings (printed at start, not fatal). */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (!/^https:\/\//i.test(config.campaigns.trackingUrl)) warnings.push(HTTP_TRACKING(config.campaigns.trackingUrl));
  if (!config.platformDkim) warnings.push(PLATFORM_SIGNING_OFF);
  for (const [setting, address] of [
    ['MAIL_FROM', addressOf(config.mailFrom)],
    ['CAMPAIGN_FROM', config.campaigns.defaultFrom],
  ] as const) {
    const warning = config.platformDkim && alignmentWarning(setting, address, config.platformDkim);
    if (warning) warnings.push(warning);
  }
  return warnings;
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.GATEWAY_DATA_DIR || path.join(GATEWAY_ROOT, '.data'));
  const consoleUrl = (env.CONSOLE_URL || 'http://localhost:3000').replace(/\/+$/, '');
  const port = int(env, 'PORT', int(env, 'GATEWAY_PORT', 4000));
  const publicUrl = (env.GATEWAY_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const jwt = jwtSecret(env, dataDir);
  const mailFrom = env.MAIL_FROM || 'Community Console <no-reply@console.test>';
  const platformFrom = addressOf(mailFrom);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || null,
    dataDir,
    pgliteDir: env.PGLITE_DIR || path.join(dataDir, 'pglite'),
    slowStatementMs: int(env, 'SLOW_STATEMENT_MS', 0),
    pgliteSharedBuffers: memorySize(env, 'PGLITE_SHARED_BUFFERS', '16MB'),
    pgliteThread: pgliteThreadMode(env),
    // Absent: db/storage.ts's default.
    ...(env.PGLITE_CONTACT_LIMIT ? { pgliteContactLimit: int(env, 'PGLITE_CONTACT_LIMIT', 0) } : {}),
    jwtSecret: jwt,
    jwtIssuer: env.JWT_ISSUER || 'console-gateway',
    jwtAudience: env.JWT_AUDIENCE || 'console',
    tokenTtlSeconds: int(env, 'TOKEN_TTL_SECONDS', 12 * 60 * 60),
    consoleOrigins: list(env.CONSOLE_ORIGINS, ['http://localhost:3000']),
    consoleUrl,
    sampleAppletUrl: (
      env.APPLET_TOKEN_GATE_URL || `http://localhost:${int(env, 'APPLET_TOKEN_GATE_PORT', 3006)}`
    ).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || null,
    mailFrom,
    outboxDir: path.join(dataDir, 'outbox'),
    throttle: {
      windowMs: Math.max(1, int(env, 'LOGIN_THROTTLE_WINDOW_SECONDS', 60 * 60)) * 1000,
      accountMax: int(env, 'LOGIN_THROTTLE_ACCOUNT_MAX', 10),
      trustedReserve: int(env, 'LOGIN_THROTTLE_TRUSTED_RESERVE', 3),
      trustedSlips: 1,
      addressMax: int(env, 'LOGIN_THROTTLE_ADDRESS_MAX', 50),
      freeFailures: int(env, 'LOGIN_THROTTLE_FREE_FAILURES', 3),
      baseDelayMs: int(env, 'LOGIN_THROTTLE_DELAY_SECONDS', 15) * 1000,
      knownAddressMs: int(env, 'LOGIN_KNOWN_ADDRESS_DAYS', 90) * 24 * 60 * 60 * 1000,
    },
    resetTokenTtlMs: int(env, 'RESET_TOKEN_TTL_SECONDS', 60 * 60) * 1000,
    signInLinkTtlMs: Math.max(60, int(env, 'SIGN_IN_LINK_TTL_SECONDS', 15 * 60)) * 1000,
    confirmTokenTtlMs: int(env, 'CONFIRM_TOKEN_TTL_SECONDS', 7 * 24 * 60 * 60) * 1000,
    bodyLimit: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || (env.QUIET === '1' ? 'warn' : 'info'),
    imports: {
      batchRows: Math.max(1, int(env, 'IMPORT_BATCH_ROWS', 5000)),
      sliceMs: Math.max(1, int(env, 'IMPORT_SLICE_MS', 120_000)),
      uploadTtlMs: int(env, 'IMPORT_UPLOAD_TTL_SECONDS', 24 * 60 * 60) * 1000,
      tenantLimitBytes: int(env, 'IMPORT_TENANT_LIMIT_BYTES', 1024 * 1024 * 1024),
    },
    jobs: {
      workers: !['off', '0', 'false'].includes((env.WORKERS ?? '').toLowerCase()),
      pollSeconds: Math.max(0.5, Number(env.JOBS_POLL_SECONDS || 2)),
      superviseSeconds: Math.max(1, int(env, 'JOBS_SUPERVISE_SECONDS', 10)),
      heartbeatSeconds: Math.max(10, int(env, 'JOBS_HEARTBEAT_SECONDS', 30)),
    },
    automations: {
      pollMs: Math.max(0, int(env, 'AUTOMATIONS_POLL_MS', 1000)),
      leaseSeconds: Math.max(1, int(env, 'AUTOMATIONS_LEASE_SECONDS', 30)),
    },
    onboarding: {
      publicUrl,
      sdkBaseUrl: (env.SDK_BASE_URL || `${publicUrl}/sdk`).replace(/\/+$/, ''),
      uploadTtlMs: int(env, 'UPLOAD_URL_TTL_SECONDS', 15 * 60) * 1000,
      s3: env.S3_BUCKET
        ? {
            bucket: env.S3_BUCKET,
            region: env.S3_REGION || 'us-east-1',
            endpoint: env.S3_ENDPOINT || null,
            publicBaseUrl: env.S3_PUBLIC_BASE_URL || null,
          }
        : null,
      signupWindowMs: int(env, 'SIGNUP_THROTTLE_WINDOW_SECONDS', 60 * 60) * 1000,
      signupAddressMax: int(env, 'SIGNUP_THROTTLE_ADDRESS_MAX', 10),
      signupWidgetMax: int(env, 'SIGNUP_THROTTLE_WIDGET_MAX', 1000),
      signupConfirmTtlMs: int(env, 'SIGNUP_CONFIRM_TTL_SECONDS', 7 * 24 * 60 * 60) * 1000,
    },
    billing: billingConfig(env),
    campaigns: {
      walletMailDomain: (env.WALLET_MAIL_DOMAIN || '').trim().toLowerCase() || null,
      defaultFrom: env.CAMPAIGN_FROM || addressOf(env.MAIL_FROM || 'no-reply@console.test'),
      trackingUrl: trackingUrlOf(env, publicUrl),
      trackingSecret: env.TRACKING_SECRET || createHmac('sha256', jwt).update('campaign tracking').digest('hex'),
      unsubscribeMailbox: (env.UNSUBSCRIBE_MAILBOX || `unsubscribe@${bounceDomainOf(env)}`).trim().toLowerCase(),
      bounceDomain: bounceDomainOf(env),
      inbound: {
        port: int(env, 'INBOUND_SMTP_PORT', 0) || null,
        host: env.INBOUND_SMTP_HOST || env.HOST || '127.0.0.1',
        maxBytes: Math.max(1024, int(env, 'INBOUND_MAX_BYTES', 1024 * 1024)),
        maxClients: Math.max(1, int(env, 'INBOUND_MAX_CLIENTS', 20)),
        tls: inboundTls(env),
      },
      mailEventsSecret: env.MAIL_EVENTS_SECRET || null,
      poolSize: Math.max(1, int(env, 'SEND_POOL_SIZE', 32)),
      globalRate: int(env, 'SEND_RATE_GLOBAL', 0),
      tenantRate: int(env, 'SEND_RATE_TENANT', 0),
      maxAttempts: Math.max(1, int(env, 'SEND_MAX_ATTEMPTS', 5)),
      retryDelaySeconds: Math.max(1, int(env, 'SEND_RETRY_DELAY_SECONDS', 60)),
      leaseSeconds: Math.max(2, int(env, 'SEND_LEASE_SECONDS', 8)),
      runsPerCampaign: Math.max(1, int(env, 'SEND_RUNS_PER_CAMPAIGN', 1)),
    },
    admission: admissionConfig(env),
    apiKeyRateLimit: apiKeyRateLimitOf(env),
    offLoop: {
      threads: Math.max(1, int(env, 'OFF_LOOP_THREADS', DEFAULT_OFF_LOOP.threads)),
      queue: Math.max(1, int(env, 'OFF_LOOP_QUEUE', DEFAULT_OFF_LOOP.queue)),
      guardMs: Math.max(50, int(env, 'OFF_LOOP_GUARD_MS', DEFAULT_OFF_LOOP.guardMs)),
    },
    domains: {
      dnsServers: env.DNS_SERVERS ? list(env.DNS_SERVERS, []) : null,
      dnsTimeoutMs: Math.max(100, int(env, 'DNS_TIMEOUT_MS', 3000)),
      spfInclude: (env.SENDING_SPF_INCLUDE || '_spf.console.example').trim().toLowerCase(),
      trackingHost: (env.TRACKING_CNAME_TARGET || 'track.console.example').trim().toLowerCase(),
    },
    applets: {
      allowPrivateManifests: flag(env.APPLETS_ALLOW_PRIVATE_MANIFESTS, env.NODE_ENV !== 'production'),
      manifestTimeoutMs: Math.max(100, int(env, 'APPLETS_MANIFEST_TIMEOUT_MS', 5000)),
      manifestMaxBytes: Math.max(1024, int(env, 'APPLETS_MANIFEST_MAX_BYTES', 1024 * 1024)),
    },
    webhooks: {
      allowLoopback: flag(env.WEBHOOKS_ALLOW_LOOPBACK, false),
      retrySeconds: secondsList(env, 'WEBHOOK_RETRY_SECONDS', DEFAULT_WEBHOOK_RETRY_SECONDS),
      timeoutMs: Math.max(100, int(env, 'WEBHOOK_TIMEOUT_MS', 10_000)),
      leaseSeconds: Math.max(1, int(env, 'WEBHOOK_LEASE_SECONDS', 30)),
    },
    onchain: onchainConfigOf(env),
    platformDkim: loadPlatformDkim(env, dataDir, platformFrom.slice(platformFrom.lastIndexOf('@') + 1)),
  };
}
