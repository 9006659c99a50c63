/**
 * Automations' tables (spec section 2: engagement/automations; docs/automations.md): the automations with
 * their grid counters and trigger cursors, their versions (immutable once activated), one journey per
 * contact and occurrence with its fencing generation, the step log, what re-entry reads, the outbox of
 * list joins and widget sign-ups, and the segment members an automation has seen.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AutomationStatus, JourneyGraph, JourneyState, Reentry, TriggerType } from '../contracts';
import { createdAt, updatedAt } from '../db/columns';
import { tenants } from '../db/shared-schema';
import { contacts } from '../audience/schema';

/**
 * An automation. `version` is its latest version (the draft while one is edited); `activeVersion` the
 * one new contacts enter. `triggerType` and `triggerKey` (the list, segment, widget or contract id) are
 * the active version's trigger, copied at activation, so the trigger sources find their automations by
 * an index. The counters change in the statements that enter, complete and send.
 */
export const automations = pgTable(
  'automations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').$type<AutomationStatus>().notNull().default('draft'),
    version: integer('version').notNull().default(1),
    activeVersion: integer('active_version'),
    /** The latest version's trigger type, for the grid (null while the draft has none). */
    draftTrigger: text('draft_trigger').$type<TriggerType>(),
    triggerType: text('trigger_type').$type<TriggerType>(),
    triggerKey: text('trigger_key'),
    /** Contract-event trigger: the last `contract_events.id` read. */
    eventCursor: bigint('event_cursor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** Date trigger: the last local day (YYYY-MM-DD) done, and the last contact id entered on the day being done. */
    dateDay: text('date_day'),
    dateCursor: uuid('date_cursor'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('automations_tenant_idx').on(t.tenantId, t.createdAt),
    index('automations_trigger_idx')
      .on(t.triggerType, t.triggerKey)
      .where(sql`${t.status} <> 'draft'`),
    check('automations_status_check', sql`${t.status} in ('draft', 'active', 'paused')`),
  ],
);

/**
 * The grid's counters of an automation, in a few shards (a journey's steps add to shard `id % 16`), so
 * that concurrent steps of one automation do not queue on one row; a read sums at most 16 rows. They
 * change in the statements that enter, complete and send, so the grid never counts journeys.
 */
export const automationCounters = pgTable(
  'automation_counters',
  {
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    shard: integer('shard').notNull(),
    entered: integer('entered').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    emailsSent: integer('emails_sent').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.automationId, t.shard] })],
);

/** A version of an automation's journey; immutable once `activatedAt` is set. */
export const automationVersions = pgTable(
  'automation_versions',
  {
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    graph: jsonb('graph').$type<JourneyGraph>().notNull(),
    reentry: jsonb('reentry').$type<Reentry>().notNull(),
    activatedAt: timestamp('activated_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.automationId, t.version] })],
);

/**
 * One contact's journey through one version, per occurrence (its n-th entry). `nodeId` is where it is;
 * `dueAt` when it goes on (a wait's end, or its entry). `generation` fences the runner: a claim raises
 * it, and a step's transaction writes only while it is the one it claimed. `context` is the trigger's
 * (the event and its arguments, an API call's data).
 */
export const automationJourneys = pgTable(
  'automation_journeys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull(),
    version: integer('version').notNull(),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    occurrence: integer('occurrence').notNull(),
    nodeId: text('node_id').notNull(),
    state: text('state').$type<JourneyState>().notNull().default('active'),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }),
    context: jsonb('context').$type<Record<string, unknown>>().notNull().default({}),
    generation: integer('generation').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    steps: integer('steps').notNull().default(0),
    enteredAt: timestamp('entered_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('automation_journeys_occurrence_idx').on(t.automationId, t.contactId, t.occurrence),
    // The runner's claim: journeys due, oldest first.
    index('automation_journeys_due_idx')
      .on(t.dueAt)
      .where(sql`${t.state} in ('active', 'waiting')`),
    index('automation_journeys_log_idx').on(t.automationId, t.enteredAt),
    check('automation_journeys_state_check', sql`${t.state} in ('active', 'waiting', 'completed', 'failed')`),
  ],
);

/**
 * What a journey did at each node (the automation log). A journey passes a node at most once (a graph
 * has no cycle), so (journey, node) is unique: the key of "each step happens once per occurrence".
 */
export const automationSteps = pgTable(
  'automation_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    journeyId: bigint('journey_id', { mode: 'number' })
      .notNull()
      .references(() => automationJourneys.id, { onDelete: 'cascade' }),
    nodeId: text('node_id').notNull(),
    type: text('type').notNull(),
    outcome: text('outcome').notNull(),
    /** The transactional message an e-mail step accepted (its delivery in the carrier's log). */
    messageId: uuid('message_id'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('automation_steps_node_idx').on(t.journeyId, t.nodeId)],
);

/** Re-entry: how many times a contact entered an automation, and when last. */
export const automationEntries = pgTable(
  'automation_entries',
  {
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    occurrences: integer('occurrences').notNull(),
    lastEnteredAt: timestamp('last_entered_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.automationId, t.contactId] })],
);

/**
 * Triggers waiting to enter a contact: list joins (written by a trigger on `list_members`, in the
 * transaction that adds the member) and widget sign-ups (written by the sign-up's transaction). The
 * runner deletes a row in the transaction that enters its contact.
 */
export const automationOutbox = pgTable(
  'automation_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    context: jsonb('context').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('automation_outbox_automation_idx').on(t.automationId, t.id)],
);

/** A segment-entered trigger's members seen at the last evaluation (the diff's other side). */
export const automationSegmentMembers = pgTable(
  'automation_segment_members',
  {
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.automationId, t.contactId] })],
);
