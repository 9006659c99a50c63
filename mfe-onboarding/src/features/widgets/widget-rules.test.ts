import { ApiError, failureMessage } from '@console/shared/api';
import { DELETE_FAILED } from './delete-widget-dialog';
import { parseWidgetForm, widgetErrorsOf } from './widget-form';
import { widgetTargets } from './widget-targets';

const list = (id: string, autoimport: boolean, community_id: string | null) => ({
  _id: id,
  name: id,
  description: '',
  autoimport,
  community_id,
  member_count: 0,
  created_at: '',
  updated_at: '',
});

it('widget targets exclude auto-import lists and community lists', () => {
  const lists = [list('a', false, null), list('b', true, null), list('c', false, 'comm'), list('d', true, 'comm')];
  expect(widgetTargets(lists).map((l) => l._id)).toEqual(['a']);
});

it.each([
  [{ message: 'Nope.', errors: { widget: ['First.', 'Second.'], other: ['Third.'] } }, 'First.'],
  [{ message: 'Nope.' }, 'Nope.'],
  [{ message: '' }, DELETE_FAILED],
])('delete error message of %j is %s', (body, expected) => {
  expect(failureMessage(new ApiError(409, body), DELETE_FAILED)).toBe(expected);
});

it('a network failure deletes with the fallback message', () => {
  expect(failureMessage(new Error('offline'), DELETE_FAILED)).toBe(DELETE_FAILED);
});

it('the widget form checks a list and a URL of at most 255 characters', () => {
  expect(parseWidgetForm({ type: 'Login Widget', target_id: '', url: 'x'.repeat(256) })).toMatchObject({
    ok: false,
    errors: { fields: { target_id: 'Choose a list.' } },
  });
  expect(parseWidgetForm({ type: 'Login Widget', target_id: 'l1', url: ' https://a.test ' })).toEqual({
    ok: true,
    input: { type: 'Login Widget', target_id: 'l1', url: 'https://a.test' },
  });
});

it('save errors: fields under fields, the message for the toast', () => {
  expect(widgetErrorsOf(new ApiError(400, { message: 'Bad.', errors: { url: ['Invalid URL.'] } }))).toEqual({
    fields: { url: 'Invalid URL.' },
    message: 'Bad.',
  });
});
