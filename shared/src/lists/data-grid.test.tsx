import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useCallback, useState } from 'react';
import { DataGrid, preloadVirtualRows, VIRTUALIZE_ABOVE, type DataGridColumn } from './data-grid';

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

  it('a 500-row page: the first rows plainly while the windowed body loads, then a window; a toggle re-renders one row', async () => {
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
    const restoreLayout = mockLayout();
    // Plain DOM queries and fireEvent: role queries over many rows are slow in jsdom, the grid is not.
    const { container } = render(<SelectableGrid rows={manyWidgets(500)} columns={counted} />);
    // The windowed body's chunk is not loaded yet in this file: the first rows, the rest one spacer row.
    expect(container.querySelectorAll('tbody tr[aria-rowindex]')).toHaveLength(VIRTUALIZE_ABOVE);
    expect(container.querySelectorAll('tbody tr[aria-hidden="true"]')).toHaveLength(1);
    expect(renders).toHaveBeenCalledTimes(VIRTUALIZE_ABOVE);
    // Then the window: ten rows in view and the overscan.
    await waitFor(() => expect(container.querySelectorAll('tbody tr[aria-rowindex]').length).toBeLessThan(25));
    expect(container.querySelector('tbody tr[aria-rowindex]')).toHaveAttribute('aria-rowindex', '2');
    renders.mockClear();
    const box = () => container.querySelector('input[aria-label="Select https://3.example"]');
    fireEvent.click(box()!);
    expect(box()).toBeChecked();
    expect(renders.mock.calls).toEqual([['w3']]);
    restoreLayout();
  }, 20_000);
});

const ROW_HEIGHT = 45;
const VIEW_HEIGHT = 450; // ten rows

/**
 * jsdom has no layout: the scroll area (the region around a big page's table) gets a height and a scroll height,
 * every row a height. Returns the undo.
 */
function mockLayout(): () => void {
  const rect = jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
    this: HTMLElement,
  ) {
    const height = this.getAttribute('role') === 'region' ? VIEW_HEIGHT : 0;
    return { x: 0, y: 0, top: 0, left: 0, width: 800, height, right: 800, bottom: height, toJSON: () => ({}) };
  });
  const saved = ['offsetHeight', 'clientHeight', 'scrollHeight'].map(
    (name) =>
      [
        name,
        Object.getOwnPropertyDescriptor(HTMLElement.prototype, name) ??
          Object.getOwnPropertyDescriptor(Element.prototype, name),
      ] as const,
  );
  const define = (name: string, get: (element: HTMLElement) => number) =>
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        return get(this);
      },
    });
  const isArea = (element: HTMLElement) => element.getAttribute('role') === 'region';
  define('offsetHeight', (element) => (element.tagName === 'TR' ? ROW_HEIGHT : isArea(element) ? VIEW_HEIGHT : 0));
  define('clientHeight', (element) => (isArea(element) ? VIEW_HEIGHT : 0));
  // Header and body rows (the virtualizer checks a scroll event against the element's real maximum).
  define('scrollHeight', (element) =>
    isArea(element) ? Number(element.querySelector('table')?.getAttribute('aria-rowcount') ?? 0) * ROW_HEIGHT : 0,
  );
  return () => {
    rect.mockRestore();
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
    }
  };
}

function manyWidgets(count: number): Widget[] {
  return Array.from({ length: count }, (_, i) => ({
    _id: `w${i}`,
    type: 'Subscription Widget',
    url: `https://${i}.example`,
    count: i,
  }));
}

describe('<DataGrid> with a big page (windowed body)', () => {
  beforeAll(async () => {
    await preloadVirtualRows();
  });
  let restoreLayout: () => void = () => {};
  beforeEach(() => {
    restoreLayout = mockLayout();
  });
  afterEach(() => restoreLayout());

  function SelectableBig({ count = 500 }: { count?: number }) {
    const [data] = useState(() => manyWidgets(count));
    const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
    const onToggle = useCallback(
      (id: string) =>
        setSelected((current) => {
          const next = new Set(current);
          if (next.has(id)) next.delete(id);
          else next.add(id);
          return next;
        }),
      [],
    );
    const onToggleAll = useCallback(
      (checked: boolean) => setSelected(checked ? new Set(data.map((row) => row._id)) : new Set()),
      [data],
    );
    const rowLabel = useCallback((row: Widget) => `Select ${row.url}`, []);
    return (
      <>
        <DataGrid<Widget>
          label="Widgets"
          columns={columns}
          rows={data}
          rowKey={(row) => row._id}
          empty="No widgets found."
          selection={{ selected, onToggle, onToggleAll, rowLabel, allLabel: 'Select all widgets' }}
        />
        <output data-testid="selected">{selected.size}</output>
      </>
    );
  }

  const bodyRows = (container: HTMLElement) =>
    Array.from(container.querySelectorAll<HTMLTableRowElement>('tbody tr[aria-rowindex]'));
  const rowIndexes = (container: HTMLElement) =>
    bodyRows(container).map((tr) => Number(tr.getAttribute('aria-rowindex')));
  const scrollTo = async (top: number) => {
    const area = screen.getByRole('region', { name: 'Widgets' });
    act(() => {
      area.scrollTop = top;
      fireEvent.scroll(area);
    });
  };

  it('renders only a window of the 500 rows, with the page size and every row place for screen readers', () => {
    const { container } = render(<SelectableBig />);
    const table = screen.getByRole('table', { name: 'Widgets' });
    expect(table).toHaveAttribute('aria-rowcount', '501');
    expect(container.querySelector('thead tr')).toHaveAttribute('aria-rowindex', '1');
    // Ten rows in view plus the overscan of ten below: rows 1..21 of the page (aria-rowindex 2..22).
    const indexes = rowIndexes(container);
    expect(indexes.length).toBeGreaterThanOrEqual(10);
    expect(indexes.length).toBeLessThanOrEqual(25);
    expect(indexes).toEqual(indexes.map((_, i) => i + 2));
    expect(within(bodyRows(container)[0]!).getByText('https://0.example')).toBeInTheDocument();
    // The rest is one aria-hidden spacer row, one cell across every column, of the missing height.
    const spacers = container.querySelectorAll<HTMLTableRowElement>('tbody tr[aria-hidden="true"]');
    expect(spacers).toHaveLength(1);
    const cell = spacers[0]!.cells[0]!;
    expect(cell.colSpan).toBe(5);
    expect(cell.style.height).toBe(`${(500 - indexes.length) * ROW_HEIGHT}px`);
    // Row roles as before: the header row and the rendered rows; spacers are hidden from assistive technology.
    expect(within(table).getAllByRole('row')).toHaveLength(1 + indexes.length);
  });

  it('scrolled to the middle: the rows there, with their own aria-rowindex, and spacers above and below', async () => {
    const { container } = render(<SelectableBig />);
    await scrollTo(200 * ROW_HEIGHT);
    const indexes = rowIndexes(container);
    expect(indexes[0]).toBeLessThanOrEqual(202);
    expect(indexes[0]).toBeGreaterThanOrEqual(190);
    expect(indexes).toContain(211);
    expect(indexes).toEqual(indexes.map((_, i) => indexes[0]! + i));
    expect(bodyRows(container).find((tr) => tr.getAttribute('aria-rowindex') === '202')).toHaveTextContent(
      'https://200.example',
    );
    const spacers = Array.from(container.querySelectorAll<HTMLTableRowElement>('tbody tr[aria-hidden="true"]'));
    expect(spacers).toHaveLength(2);
    const heights = spacers.map((tr) => parseFloat(tr.cells[0]!.style.height));
    expect(heights[0]).toBe((indexes[0]! - 2) * ROW_HEIGHT);
    expect(heights[0]! + heights[1]! + indexes.length * ROW_HEIGHT).toBe(500 * ROW_HEIGHT);
  });

  it('the header checkbox selects all 500 rows of the page, rendered or not, and clears them', async () => {
    const user = userEvent.setup();
    render(<SelectableBig />);
    const all = screen.getByRole('checkbox', { name: 'Select all widgets' });
    await user.click(all);
    expect(screen.getByTestId('selected')).toHaveTextContent('500');
    expect(all).toBeChecked();
    await scrollTo(400 * ROW_HEIGHT);
    expect(screen.getByRole('checkbox', { name: 'Select https://400.example' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Select https://400.example' }));
    expect(screen.getByTestId('selected')).toHaveTextContent('499');
    expect(all).toHaveAttribute('aria-checked', 'mixed');
    await user.click(all);
    expect(screen.getByTestId('selected')).toHaveTextContent('500');
    await user.click(all);
    expect(screen.getByTestId('selected')).toHaveTextContent('0');
  });

  it('keeps a row that holds the focus rendered when it is scrolled far out, and lets it go after blur', async () => {
    const user = userEvent.setup();
    const { container } = render(<SelectableBig />);
    const box = screen.getByRole('checkbox', { name: 'Select https://3.example' });
    box.focus();
    expect(box).toHaveFocus();
    await scrollTo(300 * ROW_HEIGHT);
    // Still the same element, still focused, in its place: row 4 of the page.
    expect(box).toBeInTheDocument();
    expect(box).toHaveFocus();
    expect(box.closest('tr')).toHaveAttribute('aria-rowindex', '5');
    const indexes = rowIndexes(container);
    expect(indexes[0]).toBe(5);
    expect(indexes[1]).toBeGreaterThanOrEqual(290);
    // Spacers before it, between it and the window, and after the window.
    expect(container.querySelectorAll('tbody tr[aria-hidden="true"]')).toHaveLength(3);
    // The keyboard still works on it.
    await user.keyboard(' ');
    expect(screen.getByTestId('selected')).toHaveTextContent('1');
    act(() => box.blur());
    expect(box).not.toBeInTheDocument();
    expect(rowIndexes(container)[0]).toBeGreaterThanOrEqual(290);
  });

  it('renders a page of up to VIRTUALIZE_ABOVE rows plainly: no scroll region, every row', () => {
    const { container } = render(<SelectableBig count={VIRTUALIZE_ABOVE} />);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(rowIndexes(container)).toHaveLength(VIRTUALIZE_ABOVE);
    expect(container.querySelector('tbody tr[aria-hidden="true"]')).toBeNull();
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', String(VIRTUALIZE_ABOVE + 1));
  });
});
