import { sql } from 'drizzle-orm';
import type { Area } from '../area';
import type { Deps } from '../deps';
import { onWidgetSignup } from '../onboarding/index';
import { registerTemplateUsage } from '../templates/index';
import { queryRows } from '../lib/raw-sql';
import { automationRoutes } from './routes';
import { AutomationsLoop } from './runner';

/**
 * Automations (spec section 2: engagement/automations; docs/automations.md): journeys of steps started
 * by list joins, segment entry, widget sign-ups, contract events, date attributes and API calls, run by
 * a durable runner where job workers run; e-mails ride transactional carriers (exactly once per step).
 */
let loop: AutomationsLoop | null = null;

function listenToSignups(): void {
  // A widget sign-up enters widget-triggered automations through their outbox, in the sign-up's transaction.
  onWidgetSignup('automations', async (tx, s) => {
    await tx.execute(
      sql`insert into automation_outbox (automation_id, contact_id, context)
          select a.id, ${s.contactId}::uuid, jsonb_build_object('widget_id', ${s.widgetId}::text, 'list_id', ${s.listId}::text)
            from automations a
           where a.tenant_id = ${s.tenantId}::uuid and a.trigger_type = 'widget_signup' and a.status <> 'draft'
             and (a.trigger_key is null or a.trigger_key = ${s.widgetId})`,
    );
  });
}

/** Templates used by the active version of an active or paused automation cannot be deleted. */
function registerUsage(): void {
  registerTemplateUsage('automations', async (db, tenantId, templateIds) => {
    const rows = await queryRows(
      db,
      sql`select n.template_id, count(distinct a.id)::int as n, array_agg(distinct a.name) as names
            from automations a
            join automation_versions v on v.automation_id = a.id and v.version = a.active_version
            cross join lateral (select x -> 'data' ->> 'template_id' as template_id
                                  from jsonb_array_elements(v.graph -> 'nodes') x
                                 where x ->> 'type' = 'send_email') n
           where a.tenant_id = ${tenantId}::uuid and a.status <> 'draft'
             and n.template_id = any(${`{${templateIds.join(',')}}`}::text[])
           group by n.template_id`,
    );
    return new Map(
      rows.map((r) => [
        String(r.template_id),
        { scheduled_emails: 0, active_automations: Number(r.n), names: (r.names as string[] | null) ?? [] },
      ]),
    );
  });
}

export const automationsArea: Area = {
  routes: async (app) => {
    listenToSignups();
    registerUsage();
    await app.register(automationRoutes({ wake: () => loop?.wake() }), { prefix: '/v1/automations' });
  },
  jobs: (jobs, deps: Deps) => {
    if (!jobs.workers || deps.config.automations.pollMs === 0) return;
    jobs.onStart(async () => {
      loop = new AutomationsLoop(deps, deps.config.automations.pollMs);
      loop.start(jobs.stopSignal);
    });
  },
};

export { runPass, runUntilIdle } from './runner';
