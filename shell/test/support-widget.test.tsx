import { act, render } from '@testing-library/react';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { consoleStore, type ConsoleUser } from '@console/shared/session';
import { useSupportWidget } from '../src/support-widget';

const user: ConsoleUser = {
  _id: 'u',
  email: 'a@b.test',
  role: 'staff',
  permissions: [],
  features: [],
  tenant_id: 't',
  tenant_name: 'T',
  first_name: 'A',
  last_name: 'B',
  avatar: null,
  time_zone: null,
  impersonator: null,
  is_impersonating: false,
  enableExperimentalFeatures: false,
};
const scripts = () => document.querySelectorAll('script[data-console-support]');

function Probe() {
  useSupportWidget();
  return null;
}

beforeEach(() => {
  document.querySelectorAll('script[data-console-support]').forEach((s) => s.remove());
  consoleStore.setState({ user: null });
});

test('not configured: never loads', () => {
  setRuntimeConfig({ ...DEFAULT_CONFIG, supportWidgetUrl: null });
  consoleStore.setState({ user });
  render(<Probe />);
  expect(scripts()).toHaveLength(0);
});

test('configured: waits for the user, then loads exactly once', () => {
  setRuntimeConfig({ ...DEFAULT_CONFIG, supportWidgetUrl: 'https://support.example/widget.js' });
  render(<Probe />);
  expect(scripts()).toHaveLength(0);
  act(() => consoleStore.setState({ user }));
  expect(scripts()).toHaveLength(1);
  // Another user update, and a second consumer mounting, add nothing.
  act(() => consoleStore.setState({ user: { ...user, first_name: 'Changed' } }));
  render(<Probe />);
  expect(scripts()).toHaveLength(1);
  expect(scripts()[0]?.getAttribute('src')).toBe('https://support.example/widget.js');
});
