import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DataGrid, type DataGridColumn } from './data-grid';

interface Widget {
  _id: string;
  type: string;
  url: string;
  count: number;
}

const columns: DataGridColumn<Widget>[] = [
  { key: 'type', header: 'Widget Type', sortField: 'type', render: (row) => row.type },
  { key: 'url', header: 'Website / URL', sortField: 'url', render: (row) => row.url },
  { key: 'count', header: 'Signups', sortField: 'count', render: (row) => row.count },
  { key: 'actions', header: 'Actions', render: (row) => <button type="button">Delete {row._id}</button> },
];

const rows: Widget[] = [
  { _id: 'w1', type: 'Subscription Widget', url: 'https://a.example', count: 3 },
  { _id: 'w2', type: 'Login Widget', url: 'https://b.example', count: 7 },
];

function setup(props: Partial<Parameters<typeof DataGrid<Widget>>[0]> = {}) {
  const onSort = jest.fn();
  const user = userEvent.setup();
  render(
    <DataGrid<Widget>
      label="Widgets"
      columns={columns}
      rows={rows}
      rowKey={(row) => row._id}
      sort={{ field: 'count', order: 'desc' }}
      onSort={onSort}
      empty="No widgets found."
      {...props}
    />,
  );
  return { user, onSort };
}

describe('<DataGrid>', () => {
  it('renders a table with column headers and one row per record', () => {
    setup();
    const table = screen.getByRole('table', { name: 'Widgets' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Widget Type', 'Website / URL', 'Signups', 'Actions']);
    const bodyRows = within(table).getAllByRole('row').slice(1);
    expect(bodyRows).toHaveLength(2);
    expect(within(bodyRows[1]!).getByText('https://b.example')).toBeInTheDocument();
    expect(within(bodyRows[0]!).getByRole('button', { name: 'Delete w1' })).toBeInTheDocument();
    expect(table).not.toHaveAttribute('aria-busy');
  });

  it('marks the sorted column with aria-sort and the other sortable ones with none', () => {
    setup();
    const header = (name: string) => screen.getByRole('columnheader', { name });
    expect(header('Signups')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Widget Type')).toHaveAttribute('aria-sort', 'none');
    expect(header('Actions')).not.toHaveAttribute('aria-sort');
    expect(within(header('Actions')).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows ascending for an asc sort', () => {
    setup({ sort: { field: 'url', order: 'asc' } });
    expect(screen.getByRole('columnheader', { name: 'Website / URL' })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('calls onSort with the field when a sortable header is clicked or activated by keyboard', async () => {
    const { user, onSort } = setup();
    await user.click(screen.getByRole('button', { name: 'Website / URL' }));
    expect(onSort).toHaveBeenLastCalledWith('url');
    screen.getByRole('button', { name: 'Widget Type' }).focus();
    await user.keyboard('{Enter}');
    expect(onSort).toHaveBeenLastCalledWith('type');
    expect(onSort).toHaveBeenCalledTimes(2);
  });

  it('shows the empty text in one full-width row when there are no rows', () => {
    setup({ rows: [] });
    const cell = screen.getByRole('cell', { name: 'No widgets found.' });
    expect(cell).toHaveAttribute('colspan', '4');
  });

  it('while loading: aria-busy, and a loading status instead of the empty text', () => {
    setup({ rows: [], loading: true });
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByText('No widgets found.')).not.toBeInTheDocument();
  });

  it('keeps showing the current rows while a reload is loading', () => {
    setup({ loading: true });
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('https://a.example')).toBeInTheDocument();
  });
});
