import type { DataGridColumn } from '@console/shared/lists';
import type { AttributeValue, Contact, ContactSortField, CustomAttribute } from '@console/shared/contracts';
import { SOURCE_LABELS, contactLabel, contactName, listNames, listSummary, shortenWallet } from './contact-format';
import { formatDate } from '@console/shared/format';
import { StatusBadge } from './status-badge';

export interface ContactColumnsOptions {
  /** Custom attribute columns to show, in order. */
  attributes: readonly Pick<CustomAttribute, '_id' | 'key' | 'name' | 'type'>[];
  /** List names by id (the all-lists fetch). */
  lists: ReadonlyMap<string, string>;
  onEdit: (contact: Contact) => void;
  onCopyWallet: (wallet: string) => void;
}

const MUTED = <span className="text-slate-400">—</span>;

function WalletCell({ wallet, onCopy }: { wallet: string | null; onCopy: (wallet: string) => void }) {
  if (!wallet) return MUTED;
  return (
    <span className="inline-flex items-center gap-1">
      <span title={wallet} className="font-mono text-xs">
        {shortenWallet(wallet)}
      </span>
      <button
        type="button"
        aria-label={`Copy wallet address ${wallet}`}
        title="Copy wallet address"
        onClick={() => onCopy(wallet)}
        className="rounded-sm p-0.5 text-slate-400 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
          <path d="M7 3h8a2 2 0 0 1 2 2v8h-2V5H7V3zm-2 4h8a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2zm0 2v6h8V9H5z" />
        </svg>
      </button>
    </span>
  );
}

function attributeCell(type: CustomAttribute['type'], value: AttributeValue | undefined) {
  if (value === null || value === undefined || value === '') return MUTED;
  if (type === 'boolean') return value === true ? 'Yes' : value === false ? 'No' : String(value);
  if (type === 'wallet' && typeof value === 'string') {
    return (
      <span title={value} className="font-mono text-xs">
        {shortenWallet(value)}
      </span>
    );
  }
  return String(value);
}

/**
 * The contacts grid's columns (build once per change of its inputs with useMemo: rows are memoised
 * on them). Sortable: e-mail, wallet, last name, created, updated (CONTACT_SORT_FIELDS).
 */
export function contactColumns({
  attributes,
  lists,
  onEdit,
  onCopyWallet,
}: ContactColumnsOptions): DataGridColumn<Contact, ContactSortField>[] {
  return [
    {
      key: 'email',
      header: 'E-mail',
      sortField: 'email',
      className: 'font-medium text-slate-900',
      render: (row) => row.email || MUTED,
    },
    {
      key: 'wallet',
      header: 'Wallet',
      sortField: 'wallet',
      className: 'whitespace-nowrap',
      render: (row) => <WalletCell wallet={row.wallet} onCopy={onCopyWallet} />,
    },
    { key: 'name', header: 'Name', sortField: 'last_name', render: (row) => contactName(row) || MUTED },
    { key: 'status', header: 'Status', render: (row) => <StatusBadge status={row.status} /> },
    { key: 'source', header: 'Source', render: (row) => SOURCE_LABELS[row.source] },
    {
      key: 'lists',
      header: 'Lists',
      render: (row) => {
        const names = listNames(row.lists, lists);
        if (row.lists.length === 0) return MUTED;
        return (
          <span title={names.join(', ')}>
            <span className="tabular-nums">{row.lists.length}</span>
            {names.length > 0 && <span className="ml-1 text-slate-500">· {listSummary(names)}</span>}
          </span>
        );
      },
    },
    ...attributes.map((attribute): DataGridColumn<Contact, ContactSortField> => ({
      key: `attr:${attribute._id}`,
      header: attribute.name,
      render: (row) => attributeCell(attribute.type, row.attributes[attribute.key]),
    })),
    {
      key: 'created',
      header: 'Created',
      sortField: 'created_at',
      className: 'whitespace-nowrap',
      render: (row) => formatDate(row.created_at),
    },
    {
      key: 'updated',
      header: 'Updated',
      sortField: 'updated_at',
      className: 'whitespace-nowrap',
      render: (row) => formatDate(row.updated_at),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      render: (row) => (
        <button
          type="button"
          aria-label={`Edit ${contactLabel(row)}`}
          onClick={() => onEdit(row)}
          className="rounded-sm text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          Edit
        </button>
      ),
    },
  ];
}
