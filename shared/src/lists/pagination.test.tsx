import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Pagination } from '@console/shared/contracts/core';
import { ListPagination } from './pagination';

const middle: Pagination = { starting: 11, ending: 20, count: 42, previous: 1, next: 3 };

function setup(pagination: Pagination = middle, perPage = 10) {
  const onPage = jest.fn();
  const onPerPage = jest.fn();
  const user = userEvent.setup();
  render(<ListPagination pagination={pagination} onPage={onPage} perPage={perPage} onPerPage={onPerPage} />);
  return {
    user,
    onPage,
    onPerPage,
    previous: screen.getByRole('button', { name: 'Previous' }),
    next: screen.getByRole('button', { name: 'Next' }),
    select: screen.getByRole('combobox', { name: 'Per page' }),
  };
}

describe('<ListPagination>', () => {
  it("shows 'Showing x to y of z results' inside a Pagination landmark", () => {
    setup();
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toBeInTheDocument();
    expect(screen.getByText('Showing 11 to 20 of 42 results')).toBeInTheDocument();
  });

  it('enables both buttons in the middle and calls onPage with the previous/next page', async () => {
    const { user, onPage, previous, next } = setup();
    expect(previous).toBeEnabled();
    expect(next).toBeEnabled();
    await user.click(previous);
    expect(onPage).toHaveBeenLastCalledWith(1);
    await user.click(next);
    expect(onPage).toHaveBeenLastCalledWith(3);
  });

  it('disables Previous on the first page and Next on the last', async () => {
    const first = setup({ starting: 1, ending: 10, count: 42, previous: null, next: 2 });
    expect(first.previous).toBeDisabled();
    expect(first.next).toBeEnabled();
    await first.user.click(first.previous);
    expect(first.onPage).not.toHaveBeenCalled();
  });

  it('disables Next on the last page', () => {
    const { previous, next } = setup({ starting: 41, ending: 42, count: 42, previous: 4, next: null });
    expect(previous).toBeEnabled();
    expect(next).toBeDisabled();
  });

  it('offers the six page sizes and reports the chosen one', async () => {
    const { user, select, onPerPage } = setup();
    expect(select).toHaveValue('10');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      '10',
      '25',
      '50',
      '100',
      '250',
      '500',
    ]);
    await user.selectOptions(select, '250');
    expect(onPerPage).toHaveBeenCalledWith(250);
  });

  it('still shows a saved size that is not in the list', () => {
    const { select } = setup(middle, 20);
    expect(select).toHaveValue('20');
  });

  it('is keyboard operable: Tab reaches the select and the buttons, Enter pages', async () => {
    const { user, select, previous, next, onPage } = setup();
    await user.tab();
    expect(select).toHaveFocus();
    await user.tab();
    expect(previous).toHaveFocus();
    await user.tab();
    expect(next).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onPage).toHaveBeenCalledWith(3);
  });
});
