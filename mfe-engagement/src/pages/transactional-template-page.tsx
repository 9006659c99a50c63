import '../styles.css';
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@console/shared/router';
import { PageHeader } from '@console/shared/layout';
import { messageOf } from '@console/shared/api';
import { runtimeConfig } from '@console/shared/config';
import { Spinner } from '@console/shared/ui';
import type { TransactionalTemplateDetail } from '@console/shared/contracts';
import { DeliveryLogScreen } from '../features/emails/log/delivery-log-screen';
import type { DeliveryLogSource } from '../features/emails/log/log-source';
import {
  TRANSACTIONAL_KEY,
  exportLog,
  fetchLogLinks,
  fetchLogRecipients,
  fetchRecipientEvents,
  fetchTimeline,
  fetchTransactionalTemplate,
} from '../features/transactional/api';
import { TRANSACTIONAL_PATH } from '../features/transactional/paths';
import { buildSnippets } from '../features/transactional/snippets';
import { SettingsForm, SnippetsPanel } from '../features/transactional/template-parts';

/** The template's messages in the shared delivery log view (GET /v1/transactional/templates/{id}/log/*). */
function templateLogSource(id: string, detail: () => Promise<TransactionalTemplateDetail>): DeliveryLogSource {
  return {
    key: [...TRANSACTIONAL_KEY, 'log', id],
    back: { path: TRANSACTIONAL_PATH, label: 'Transactional E-mails' },
    exportFileName: 'transactional-log.csv',
    embedded: true,
    searchPlaceholder: 'Search by recipient or message ID',
    summary: async () => {
      const t = await detail();
      return {
        name: t.name,
        status: 'sending',
        stats: t.stats,
        started_at: null,
        finished_at: null,
        failure_reason: null,
        live: true,
        editPath: null,
      };
    },
    timeline: () => fetchTimeline(id),
    recipients: (query) => fetchLogRecipients(id, query),
    events: (rid) => fetchRecipientEvents(id, rid),
    links: () => fetchLogLinks(id),
    exportCsv: (query) => exportLog(id, query),
  };
}

/**
 * A transactional template (engagement/transactional-emails/detail; permission transactional_emails):
 * the snippets that send it, its settings, and its messages in the shared delivery log.
 */
export default function TransactionalTemplatePage() {
  const { id = '' } = useParams();
  const template = useQuery({
    queryKey: [...TRANSACTIONAL_KEY, 'template', id],
    queryFn: () => fetchTransactionalTemplate(id),
  });
  const source = useMemo(() => templateLogSource(id, () => fetchTransactionalTemplate(id)), [id]);
  const t = template.data;
  const snippets = useMemo(
    () =>
      t ? buildSnippets({ gatewayUrl: runtimeConfig().gatewayUrl, templateId: t._id, variables: t.variables }) : null,
    [t],
  );
  const back = (
    <Link to={TRANSACTIONAL_PATH} className="text-sm text-brand-700 underline">
      Back to transactional e-mails
    </Link>
  );
  if (template.isPending)
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Loading the template" />
      </div>
    );
  if (template.isError || !t || !snippets)
    return (
      <section>
        <PageHeader title="Transactional e-mail" actions={back} />
        <p role="alert" className="text-sm text-red-700">
          {messageOf(template.error, 'The template could not be loaded.')}
        </p>
      </section>
    );
  return (
    <section className="space-y-6">
      <PageHeader
        title={t.name}
        description={`Template ID ${t._id}${t.variables.length > 0 ? ` · merge variables: ${t.variables.join(', ')}` : ''}`}
        actions={back}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <SnippetsPanel snippets={snippets} />
        </div>
        <SettingsForm key={t._id} templateId={t._id} initial={t.settings} />
      </div>
      <h2 className="text-lg font-semibold text-slate-900">Messages</h2>
      <DeliveryLogScreen source={source} />
    </section>
  );
}
