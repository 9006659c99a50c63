import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useCallback, useState } from 'react';
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

describe('<DataGrid> selection', () => {
  function SelectableGrid({
    rows: data = rows,
    columns: cols = columns,
    initial = [],
  }: {
    rows?: Widget[];
    columns?: DataGridColumn<Widget>[];
    initial?: string[];
  }) {
    const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set(initial));
    const onToggle = useCallback((id: string) => {
      setSelected((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    }, []);
    const onToggleAll = useCallback(
      (checked: boolean) => setSelected(checked ? new Set(data.map((row) => row._id)) : new Set()),
      [data],
    );
    const rowLabel = useCallback((row: Widget) => `Select ${row.url}`, []);
    return (
      <>
        <DataGrid<Widget>
          label="Widgets"
          columns={cols}
          rows={data}
          rowKey={(row) => row._id}
          empty="No widgets found."
          selection={{ selected, onToggle, onToggleAll, rowLabel, allLabel: 'Select all widgets' }}
        />
        <output data-testid="selected">{[...selected].join(',')}</output>
      </>
    );
  }

  it('adds a labelled checkbox column without changing the other headers', () => {
    render(<SelectableGrid />);
    const headers = screen.getAllByRole('columnheader');
    expect(headers).toHaveLength(5);
    expect(within(headers[0]!).getByRole('checkbox', { name: 'Select all widgets' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select https://a.example' })).not.toBeChecked();
  });

  it('toggles one row, then the header checks and unchecks the page', async () => {
    const user = userEvent.setup();
    render(<SelectableGrid />);
    const all = screen.getByRole('checkbox', { name: 'Select all widgets' });
    await user.click(screen.getByRole('checkbox', { name: 'Select https://b.example' }));
    expect(screen.getByTestId('selected')).toHaveTextContent('w2');
    expect(all).not.toBeChecked();
    expect(all).toHaveAttribute('aria-checked', 'mixed');
    expect(all).toHaveProperty('indeterminate', true);
    await user.click(all);
    expect(screen.getByTestId('selected')).toHaveTextContent('w1,w2');
    expect(all).toBeChecked();
    expect(all).toHaveProperty('indeterminate', false);
    await user.click(all);
    expect(screen.getByTestId('selected')).toBeEmptyDOMElement();
    expect(screen.getByRole('checkbox', { name: 'Select https://a.example' })).not.toBeChecked();
  });

  it('works from the keyboard (Space on a focused checkbox)', async () => {
    const user = userEvent.setup();
    render(<SelectableGrid />);
    screen.getByRole('checkbox', { name: 'Select https://a.example' }).focus();
    await user.keyboard(' ');
    expect(screen.getByTestId('selected')).toHaveTextContent('w1');
  });

  it('spans the empty row over the checkbox column too, with the header checkbox disabled', () => {
    render(<SelectableGrid rows={[]} />);
    expect(screen.getByRole('cell', { name: 'No widgets found.' })).toHaveAttribute('colspan', '5');
    expect(screen.getByRole('checkbox', { name: 'Select all widgets' })).toBeDisabled();
  });

  it('renders 500 rows and re-renders only the toggled row', () => {
    const many: Widget[] = Array.from({ length: 500 }, (_, i) => ({
      _id: `w${i}`,
      type: 'Subscription Widget',
      url: `https://${i}.example`,
      count: i,
    }));
    const renders = jest.fn();
    const counted: DataGridColumn<Widget>[] = [
      {
        key: 'url',
        header: 'Website / URL',
        render: (row) => {
          renders(row._id);
          return row.url;
        },
      },
    ];
    // Plain DOM queries and fireEvent: role queries over 500 rows are slow in jsdom, the grid is not.
    const { container } = render(<SelectableGrid rows={many} columns={counted} />);
    expect(container.querySelectorAll('tbody tr')).toHaveLength(500);
    expect(renders).toHaveBeenCalledTimes(500);
    renders.mockClear();
    const box = () => container.querySelector('input[aria-label="Select https://42.example"]');
    fireEvent.click(box()!);
    expect(box()).toBeChecked();
    expect(renders.mock.calls).toEqual([['w42']]);
  }, 20_000);
});
