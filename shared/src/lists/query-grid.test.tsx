import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Pagination } from '@console/shared/contracts/core';
import { useListQuery, type ListQuery } from './use-list-query';
import type { DataGridColumn } from './data-grid';
import { QueryGrid, type QueryGridPage } from './query-grid';

interface Row {
  id: string;
  name: string;
}
type Field = 'name' | 'created_at';

const COLUMNS: DataGridColumn<Row, Field>[] = [
  { key: 'name', header: 'Name', sortField: 'name', render: (r) => r.name },
];
const PAGE: QueryGridPage<Row> = {
  records: [
    { id: '1', name: 'Alpha' },
    { id: '2', name: 'Beta' },
  ],
  pagination: { starting: 11, ending: 12, count: 12, previous: 1, next: null } satisfies Pagination,
};

/** Renders the grid with the real list behaviour and reports the query it asks for. */
function Harness({
  page,
  error,
  seen,
}: {
  page?: QueryGridPage<Row>;
  error?: string;
  seen: (q: ListQuery<Field>) => void;
}) {
  const list = useListQuery<Field>({ defaultSort: { field: 'created_at', order: 'desc' }, storage: null });
  seen(list);
  return (
    <QueryGrid<Row, Field>
      label="Things"
      list={list}
      page={page}
      error={error}
      search={{ label: 'Search things', placeholder: 'Name' }}
      toolbar={<span>Toolbar</span>}
      columns={COLUMNS}
      rowKey={(r) => r.id}
      empty="Nothing yet."
    />
  );
}

function setup(props: { page?: QueryGridPage<Row>; error?: string } = {}) {
  let last: ListQuery<Field> | null = null;
  const user = userEvent.setup();
  render(<Harness {...props} seen={(q) => (last = q)} />);
  return { user, list: () => last as unknown as ListQuery<Field> };
}

describe('<QueryGrid>', () => {
  it('shows the page rows, the toolbar and the footer of the list response', () => {
    setup({ page: PAGE });
    const table = screen.getByRole('table', { name: 'Things' });
    expect(within(table).getByText('Alpha')).toBeInTheDocument();
    expect(within(table).getByText('Beta')).toBeInTheDocument();
    expect(screen.getByText('Toolbar')).toBeInTheDocument();
    expect(screen.getByText('Showing 11 to 12 of 12 results')).toBeInTheDocument();
  });

  it('has no footer before the first answer, and shows the empty text', () => {
    setup();
    expect(screen.getByText('Nothing yet.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('drives the list query: the search box, a header sorts, Previous pages, the size select sets perPage', async () => {
    const { user, list } = setup({ page: PAGE });
    await user.type(screen.getByRole('searchbox', { name: 'Search things' }), 'alp');
    expect(list().searchInput).toBe('alp');
    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(list().state.sortField).toBe('name');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(list().state.page).toBe(1);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Per page' }), '25');
    expect(list().state.perPage).toBe(25);
  });

  it('shows a failed fetch as an alert, as text', () => {
    setup({ page: PAGE, error: '<b>Server said no</b>' });
    expect(screen.getByRole('alert')).toHaveTextContent('<b>Server said no</b>');
  });
});
