import '../styles.css';
import { ListsTable } from '../features/lists/lists-table';

/** Lists (manage_contacts): the tenant's lists with search, sort, paging, create, edit and delete. */
export default function ListsPage() {
  return <ListsTable />;
}
