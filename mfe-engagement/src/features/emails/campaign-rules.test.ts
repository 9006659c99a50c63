import type { AudienceCount, CampaignStatus } from '@console/shared/contracts';
import {
  audienceLines,
  formatRate,
  hasStarted,
  incompleteItems,
  instantToZoned,
  issuesFromErrors,
  progressOf,
  receiveText,
  rowActions,
  scheduleProblem,
  zonedToInstant,
  type ComposeDraft,
} from './campaign-rules';

const row = (status: CampaignStatus, started_at: string | null = null) => ({ status, started_at });

describe('row actions by status', () => {
  test.each<[CampaignStatus, string | null, string[]]>([
    ['draft', null, ['edit', 'duplicate', 'delete']],
    ['scheduled', null, ['edit', 'duplicate', 'cancel']],
    ['sending', '2026-11-01T10:00:00Z', ['log', 'duplicate', 'pause', 'cancel']],
    ['paused', '2026-11-01T10:00:00Z', ['log', 'duplicate', 'resume', 'cancel']],
    ['sent', '2026-11-01T10:00:00Z', ['log', 'duplicate']],
    ['cancelled', null, ['duplicate', 'delete']],
    ['cancelled', '2026-11-01T10:00:00Z', ['log', 'duplicate', 'delete']],
    ['failed', '2026-11-01T10:00:00Z', ['log', 'duplicate', 'delete']],
    ['failed', null, ['duplicate', 'delete']],
  ])('%s (started %s)', (status, started, actions) => {
    expect(rowActions(row(status, started))).toEqual(actions);
  });

  test('a sending campaign has started even before started_at is filled in', () => {
    expect(hasStarted(row('sending'))).toBe(true);
    expect(hasStarted(row('scheduled'))).toBe(false);
  });
});

describe('rates and progress', () => {
  test('a rate reads as a percent with at most one decimal', () => {
    expect(formatRate(0.4251, 100)).toBe('42.5%');
    expect(formatRate(1, 3)).toBe('100%');
    expect(formatRate(0, 10)).toBe('0%');
  });
  test('nothing delivered yet: no rate', () => {
    expect(formatRate(0, 0)).toBe('—');
    expect(formatRate(Number.NaN, 5)).toBe('—');
  });
  test('progress is a whole percent, 0 without recipients', () => {
    expect(progressOf(1, 3)).toBe(33);
    expect(progressOf(5, 0)).toBe(0);
    expect(progressOf(9, 8)).toBe(100);
  });
});

const draft = (over: Partial<ComposeDraft> = {}): ComposeDraft => ({
  name: 'Spring drop',
  subject: 'Hello',
  preview_text: '',
  template_id: 't1',
  audience: { include_lists: ['l1'], include_segments: [], exclude_lists: [], exclude_segments: [] },
  from_name: '',
  from_email: '',
  reply_to: '',
  track_opens: true,
  track_clicks: true,
  utm: { source: '', medium: '', campaign: '', term: '', content: '' },
  ...over,
});

const count = (over: Partial<AudienceCount> = {}): AudienceCount => ({
  matched: 10,
  reachable: 6,
  email: 6,
  wallet: 0,
  excluded: 1,
  unsubscribed: 1,
  bounced: 0,
  complained: 0,
  no_address: 2,
  duplicates: 0,
  wallet_mail_domain: null,
  ...over,
});

describe('what keeps an e-mail from being sent', () => {
  test('a complete draft has nothing missing', () => {
    expect(incompleteItems(draft(), count())).toEqual([]);
  });
  test('each missing part is listed under its step', () => {
    const issues = incompleteItems(
      draft({
        subject: '  ',
        template_id: null,
        audience: { include_lists: [], include_segments: [], exclude_lists: ['l2'], exclude_segments: [] },
        reply_to: 'not-an-address',
      }),
    );
    expect(issues.map((i) => [i.step, i.field])).toEqual([
      ['audience', 'audience'],
      ['content', 'template_id'],
      ['content', 'subject'],
      ['settings', 'reply_to'],
    ]);
  });
  test('an audience that reaches nobody is incomplete', () => {
    expect(incompleteItems(draft(), count({ reachable: 0, email: 0 }))[0]?.message).toBe(
      'Nobody in this audience can receive e-mail.',
    );
  });
  test("the send's field errors go to their steps", () => {
    expect(
      issuesFromErrors({ subject: ['Write a subject.'], audience: ['Choose an audience.'], reply_to: ['Bad.'] }).map(
        (i) => i.step,
      ),
    ).toEqual(['content', 'audience', 'settings']);
  });
});

describe('audience count', () => {
  test('without a wallet mail domain: e-mail only, wallet-only contacts have no address', () => {
    const lines = audienceLines(count());
    expect(lines.reachable.map((l) => l.key)).toEqual(['email']);
    expect(lines.leftOut).toEqual([
      { key: 'excluded', label: 'Excluded', value: 1 },
      { key: 'unsubscribed', label: 'Unsubscribed', value: 1 },
      { key: 'no_address', label: 'No address (wallet only)', value: 2 },
    ]);
  });
  test('with a wallet mail domain: a wallet inbox line naming the domain', () => {
    const lines = audienceLines(count({ wallet: 2, reachable: 8, no_address: 0, wallet_mail_domain: 'mail.example' }));
    expect(lines.reachable).toEqual([
      { key: 'email', label: 'By e-mail address', value: 6 },
      { key: 'wallet', label: 'By wallet inbox (@mail.example)', value: 2 },
    ]);
    expect(lines.leftOut.map((l) => l.key)).toEqual(['excluded', 'unsubscribed']);
  });
  test('how many will receive it', () => {
    expect(receiveText(0)).toBe('Nobody will receive it.');
    expect(receiveText(1)).toBe('1 person will receive it.');
    expect(receiveText(12345)).toBe('12,345 people will receive it.');
  });
});

describe('schedule: a wall-clock time in a zone as an instant', () => {
  test('Madrid in winter (UTC+1) and in summer (UTC+2)', () => {
    expect(zonedToInstant('2026-12-01', '09:30', 'Europe/Madrid')).toBe('2026-12-01T08:30:00.000Z');
    expect(zonedToInstant('2026-07-01', '09:30', 'Europe/Madrid')).toBe('2026-07-01T07:30:00.000Z');
  });
  test('New York, Kolkata (half-hour offset) and UTC', () => {
    expect(zonedToInstant('2026-12-01', '09:00', 'America/New_York')).toBe('2026-12-01T14:00:00.000Z');
    expect(zonedToInstant('2026-12-01', '09:00', 'Asia/Kolkata')).toBe('2026-12-01T03:30:00.000Z');
    expect(zonedToInstant('2026-12-01', '00:00', 'UTC')).toBe('2026-12-01T00:00:00.000Z');
  });
  test('a time skipped by the spring change moves forward; a repeated one takes the first', () => {
    // Madrid: 2026-03-29 02:00 → 03:00; 2026-10-25 03:00 → 02:00.
    expect(zonedToInstant('2026-03-29', '02:30', 'Europe/Madrid')).toBe('2026-03-29T01:30:00.000Z');
    expect(zonedToInstant('2026-10-25', '02:30', 'Europe/Madrid')).toBe('2026-10-25T00:30:00.000Z');
  });
  test('not a date, a time or a zone: null', () => {
    expect(zonedToInstant('2026-02-30', '09:00', 'UTC')).toBeNull();
    expect(zonedToInstant('2026-12-01', '24:00', 'UTC')).toBeNull();
    expect(zonedToInstant('', '09:00', 'UTC')).toBeNull();
    expect(zonedToInstant('2026-12-01', '09:00', 'Mars/Olympus')).toBeNull();
  });
  test('an instant back on the wall clock of its zone', () => {
    expect(instantToZoned('2026-12-01T08:30:00.000Z', 'Europe/Madrid')).toEqual({ date: '2026-12-01', time: '09:30' });
  });
  test('past, too far ahead, or fine', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(scheduleProblem(null, now, 365)).toBe('Choose a date and a time.');
    expect(scheduleProblem('2026-11-26T11:59:00.000Z', now, 365)).toBe('Choose a time in the future.');
    expect(scheduleProblem('2028-01-01T00:00:00.000Z', now, 365)).toBe('Choose a time within 365 days.');
    expect(scheduleProblem('2026-11-27T09:00:00.000Z', now, 365)).toBeNull();
  });
});
