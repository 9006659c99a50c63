import '../styles.css';
import { useParams } from '@console/shared/router';
import { ApiError } from '@console/shared/api';
import { Spinner } from '@console/shared/ui';
import { ContactsGrid } from '../features/contacts/contacts-grid';
import { useListDetail } from '../features/lists/api';
import { BackToLists, ListActions, ListNotFound, ListSummary } from '../features/lists/list-header';

/** One list (/engagement/lists/:id): its heading and actions over the contacts grid fixed to the list. */
export default function ListPage() {
  const { id = '' } = useParams();
  const list = useListDetail(id);
  if (list.isPending) return <Spinner className="mx-auto mt-8 h-6 w-6" />;
  if (list.isError) {
    if (list.error instanceof ApiError && list.error.status === 404) return <ListNotFound />;
    return (
      <p role="alert" className="text-sm text-red-700">
        {list.error.message}
      </p>
    );
  }
  return (
    <>
      <BackToLists />
      <ContactsGrid
        key={list.data._id}
        title={list.data.name}
        description={<ListSummary list={list.data} />}
        listId={list.data._id}
        actions={<ListActions list={list.data} />}
      />
    </>
  );
}
