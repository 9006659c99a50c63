import '../styles.css';
import { Link } from '@console/shared/router';
import { ContactsGrid } from '../features/contacts/contacts-grid';

const LINK_BUTTON =
  'inline-flex items-center justify-center rounded-control bg-white px-4 py-2 text-sm font-medium text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/** Contacts (manage_contacts): the tenant's audience with filters, bulk actions, export and import. */
export default function ContactsPage() {
  return (
    <ContactsGrid
      title="Contacts"
      description="Everyone in your community: wallets and e-mail addresses, their lists and attributes."
      urlFilters
      actions={
        <Link to="/engagement/contacts/import" className={LINK_BUTTON}>
          Import contacts
        </Link>
      }
    />
  );
}
