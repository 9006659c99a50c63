/**
 * The database's tables, gathered: each area's own tables live beside its code (src/<area>/schema.ts),
 * the tables they all share in shared-schema.ts. This is Drizzle's typed schema (db/index.ts) and
 * what drizzle-kit compares with the last migration's snapshot (drizzle.config.ts). Schema files
 * import only drizzle-orm, the contracts' types and other schema files, so gathering them here makes
 * no cycle.
 *
 * Keep their SQL plain PostgreSQL 15 (Debian's server) and PGlite (Postgres 18): no 16+-only features.
 */
export * from './shared-schema';
export * from '../auth/schema';
export * from '../team/schema';
export * from '../domains/schema';
export * from '../audience/schema';
export * from '../onboarding/schema';
export * from '../billing/schema';
export * from '../templates/schema';
export * from '../campaigns/schema';
export * from '../applets/schema';
export * from '../webhooks/schema';
export * from '../api-keys/schema';
export * from '../transactional/schema';
export * from '../onchain/schema';
export * from '../automations/schema';
