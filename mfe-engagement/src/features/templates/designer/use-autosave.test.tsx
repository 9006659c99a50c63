import { act, renderHook, waitFor } from '@testing-library/react';
import type { Template } from '@console/shared/contracts';
import { badRequest, fakeGateway, json } from '../../../../test/audience-kit';
import { useAutosave, type DesignSnapshot } from './use-autosave';

const loaded: DesignSnapshot = { mjml: '<mjml>v1</mjml>', project: null, subject: 'Hi', preview_text: '' };
const template = (version: number, over: Partial<DesignSnapshot> = {}): Template => ({
  _id: 't1',
  name: 'News',
  kind: 'marketing',
  version,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  updated_by: null,
  used_by: { scheduled_emails: 0, active_automations: 0, names: [] },
  ...loaded,
  ...over,
});

function setup() {
  const gateway = fakeGateway();
  let version = 1;
  gateway.on('PATCH /v1/templates/:id', ({ json: body }) => {
    version += 1;
    return { template: template(version, body as DesignSnapshot), warnings: [] };
  });
  let current: DesignSnapshot = loaded;
  const onSaved = jest.fn();
  const hook = renderHook(() =>
    useAutosave({ templateId: 't1', version: 1, loaded, read: async () => current, onSaved, delayMs: 30 }),
  );
  const edit = (over: Partial<DesignSnapshot>) => {
    current = { ...current, ...over };
    act(() => hook.result.current.changed());
  };
  const patches = () =>
    gateway.callsTo('PATCH /v1/templates/t1').map((c) => c.json as DesignSnapshot & { base_version: number });
  return { gateway, hook, edit, patches, onSaved };
}

test('saves a moment after the last change, once for a burst, with the version it builds on', async () => {
  const { hook, edit, patches, onSaved } = setup();
  expect(hook.result.current.status.kind).toBe('saved');
  edit({ mjml: '<mjml>a</mjml>' });
  edit({ mjml: '<mjml>ab</mjml>' });
  expect(hook.result.current.status.kind).toBe('pending');
  await waitFor(() => expect(hook.result.current.status.kind).toBe('saved'));
  expect(patches()).toEqual([{ ...loaded, mjml: '<mjml>ab</mjml>', base_version: 1 }]);
  expect(onSaved).toHaveBeenCalledTimes(1);

  edit({ subject: 'Hello' });
  await waitFor(() => expect(patches()).toHaveLength(2));
  expect(patches()[1]).toEqual(expect.objectContaining({ subject: 'Hello', base_version: 2 }));
});

test('nothing is sent when nothing changed', async () => {
  const { hook, edit, patches } = setup();
  edit({});
  await act(() => hook.result.current.flush());
  expect(patches()).toHaveLength(0);
  expect(hook.result.current.status.kind).toBe('saved');
});

test('a refused save is reported with its field errors and tried again after the next change', async () => {
  const { gateway, hook, edit, patches } = setup();
  gateway.on('PATCH /v1/templates/:id', ({ json: body }) =>
    (body as DesignSnapshot).mjml.includes('bad')
      ? badRequest({ mjml: ['Line 3: mj-column cannot be inside mj-text.'] }, 'The design has MJML errors.')
      : {
          template: template(2, body as DesignSnapshot),
          warnings: [{ tag: 'contact.frist_name', field: 'mjml', message: 'Unknown merge tag.' }],
        },
  );
  edit({ mjml: '<mjml>bad</mjml>' });
  await waitFor(() => expect(hook.result.current.status.kind).toBe('failed'));
  expect(hook.result.current.status).toEqual({
    kind: 'failed',
    message: 'The design has MJML errors.',
    errors: { mjml: ['Line 3: mj-column cannot be inside mj-text.'] },
  });
  edit({ mjml: '<mjml>good</mjml>' });
  await waitFor(() => expect(hook.result.current.status.kind).toBe('saved'));
  expect(patches()).toHaveLength(2);
  expect(hook.result.current.warnings).toEqual([
    { tag: 'contact.frist_name', field: 'mjml', message: 'Unknown merge tag.' },
  ]);
});

test('a conflict (409) saves again on top of the version saved meanwhile', async () => {
  const { gateway, edit, patches, hook } = setup();
  let first = true;
  gateway.on('PATCH /v1/templates/:id', ({ json: body }) => {
    if (first) {
      first = false;
      return json({ message: 'Saved meanwhile.', current_version: 5, kept_version: 6 }, 409);
    }
    return { template: template(7, body as DesignSnapshot), warnings: [] };
  });
  gateway.on('GET /v1/templates/:id', () => template(6));
  edit({ mjml: '<mjml>mine</mjml>' });
  await waitFor(() => expect(patches()).toHaveLength(2));
  expect(patches().map((p) => p.base_version)).toEqual([1, 6]);
  await waitFor(() => expect(hook.result.current.status.kind).toBe('saved'));
});

test('a change during a save is saved right after it, one save at a time', async () => {
  const { gateway, hook, edit, patches } = setup();
  let release: () => void = () => {};
  let version = 1;
  let inFlight = 0;
  let most = 0;
  gateway.on('PATCH /v1/templates/:id', async ({ json: body }) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    if (version === 1) await new Promise<void>((resolve) => (release = resolve));
    inFlight -= 1;
    version += 1;
    return { template: template(version, body as DesignSnapshot), warnings: [] };
  });
  edit({ mjml: '<mjml>one</mjml>' });
  await waitFor(() => expect(hook.result.current.status.kind).toBe('saving'));
  edit({ mjml: '<mjml>two</mjml>' });
  await act(() => new Promise((resolve) => setTimeout(resolve, 80)));
  expect(patches()).toHaveLength(1);
  release();
  await waitFor(() => expect(patches()).toHaveLength(2));
  await waitFor(() => expect(hook.result.current.status.kind).toBe('saved'));
  expect(patches()[1]).toEqual(expect.objectContaining({ mjml: '<mjml>two</mjml>', base_version: 2 }));
  expect(most).toBe(1);
});
