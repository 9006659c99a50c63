import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TemplateVersion } from '@console/shared/contracts';
import { VersionList } from './version-list';

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const versions: TemplateVersion[] = [
  { version: 3, created_at: hoursAgo(1), created_by: { _id: 'u1', name: 'Alice Acme' }, subject: 'Hello v3' },
  { version: 2, created_at: hoursAgo(5), created_by: null, subject: 'Hello v2' },
  { version: 1, created_at: hoursAgo(30), created_by: { _id: 'u2', name: 'Bob' }, subject: '' },
];

test('lists the versions newest first with when, who and the subject; the current one cannot be restored', () => {
  render(<VersionList versions={versions} current={3} restoring={null} onRestore={jest.fn()} />);
  const items = within(screen.getByRole('list', { name: 'Versions' })).getAllByRole('listitem');
  expect(items).toHaveLength(3);
  expect(items[0]).toHaveTextContent('Version 3(current)');
  expect(items[0]).toHaveTextContent('1 hour ago by Alice Acme');
  expect(items[0]).toHaveTextContent('Subject: Hello v3');
  expect(within(items[0]!).queryByRole('button')).toBeNull();
  expect(items[1]).toHaveTextContent('5 hours ago');
  expect(items[1]).not.toHaveTextContent(' by ');
  expect(items[2]).toHaveTextContent('yesterday by Bob');
  expect(items[2]).not.toHaveTextContent('Subject:');
  expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
    'Restore version 2',
    'Restore version 1',
  ]);
});

test('restoring calls back with the version; while it runs the others wait', async () => {
  const onRestore = jest.fn();
  const user = userEvent.setup();
  const { rerender } = render(<VersionList versions={versions} current={3} restoring={null} onRestore={onRestore} />);
  await user.click(screen.getByRole('button', { name: 'Restore version 1' }));
  expect(onRestore).toHaveBeenCalledWith(1);

  rerender(<VersionList versions={versions} current={3} restoring={1} onRestore={onRestore} />);
  expect(screen.getByRole('button', { name: /Restore version 1/ })).toHaveAttribute('aria-busy', 'true');
  expect(screen.getByRole('button', { name: 'Restore version 2' })).toBeDisabled();
});

test('after a restore the new current version has no button', () => {
  render(<VersionList versions={versions} current={2} restoring={null} onRestore={jest.fn()} />);
  expect(screen.getByRole('button', { name: 'Restore version 3' })).toBeEnabled();
  expect(screen.queryByRole('button', { name: 'Restore version 2' })).toBeNull();
});

test('says when there is nothing yet', () => {
  render(<VersionList versions={[]} current={1} restoring={null} onRestore={jest.fn()} />);
  expect(screen.getByText('No versions yet.')).toBeInTheDocument();
});
