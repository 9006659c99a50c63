import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notify } from '@console/shared/ui';
import type { Plan, PlanKey } from '@console/shared/contracts';
import PlansPage from '../src/pages/plans-page';
import { fakeGateway, json, renderPage, signInAdmin } from './admin-kit';

jest.setTimeout(20_000);

type Row = [emails: string, monthly: number, semiAnnual: number, yearly: number];

function makePlan(key: PlanKey, name: string, label: string, features: string[], rows: Row[]): Plan {
  return {
    _id: `p-${key}`,
    key,
    name,
    label,
    features,
    grants: [],
    pricing: rows.map(([emails, monthly, semiAnnual, yearly], i) => ({
      key: `${key}${i + 1}`,
      emails,
      monthly: { price: monthly, id: `price_${key}${i + 1}_monthly` },
      semiAnnual: { price: semiAnnual, id: `price_${key}${i + 1}_semiAnnual` },
      yearly: { price: yearly, id: `price_${key}${i + 1}_yearly` },
    })),
  };
}

const STARTUP = makePlan(
  'startup',
  'START UP',
  'For expanding projects',
  ['E-mail support', '2 smart contracts', 'AI Powered Newsletters', 'Token Airdrops'],
  [
    ['60.000', 100, 570, 1104],
    ['70.000', 112.5, 641.25, 1242],
    ['80.000', 120, 684, 1324.8],
    ['90.000', 135, 769.5, 1490.4],
    ['100.000', 150, 855, 1656],
  ],
);
const PLANS: Plan[] = [
  makePlan(
    'basic',
    'BASIC',
    'Kickstart your project',
    ['E-mail support'],
    [
      ['10.000', 50, 285, 552],
      ['20.000', 65, 342, 662.4],
      ['30.000', 70, 399, 772.8],
      ['40.000', 80, 456, 883.2],
      ['50.000', 90, 513, 993.6],
    ],
  ),
  STARTUP,
  makePlan(
    'growup',
    'GROW UP',
    'Grow with confidence',
    ['Dedicated support'],
    [
      ['125.000', 242.5, 1382.25, 2677.2],
      ['200.000', 347.5, 1980.75, 3836.4],
      ['300.000', 422.5, 2408.25, 4664.4],
      ['400.000', 480.5, 2736, 5299.2],
      ['500.000', 547.5, 3120.75, 6044.4],
    ],
  ),
  makePlan(
    'scaleup',
    'SCALE UP',
    'Scale big communities',
    ['+3 Smart Contracts'],
    [
      ['600.000', 600, 3420, 6624],
      ['750.000', 722.5, 4118.5, 7976.4],
      ['900.000', 765.5, 4360.5, 8445.6],
      ['1.000.000', 827.5, 4761.75, 9135.6],
      ['1.250.000', 975, 5557.5, 10764],
    ],
  ),
];

/** The body the editor sends for a plan left as it is. */
function unchangedBody(plan: Plan) {
  return {
    label: plan.label,
    features: plan.features,
    pricing: plan.pricing.map(({ key, emails, monthly, semiAnnual, yearly }) => ({
      key,
      emails,
      monthly,
      semiAnnual,
      yearly,
    })),
  };
}

let success: jest.SpyInstance;
let failure: jest.SpyInstance;

beforeEach(() => {
  signInAdmin();
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
  failure = jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => jest.restoreAllMocks());

async function renderPlans() {
  const view = renderPage(<PlansPage />, '/plans');
  await screen.findByTestId('plan-row-scaleup');
  return view;
}

/** Clears an input and pastes new text (typing key by key is slow in jsdom). */
async function replace(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.click(input);
  await user.paste(text);
}

async function openEditor(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('button', { name: `Edit ${name}` }));
  return screen.findByRole('dialog', { name: `Edit ${name}` });
}

describe('Plans page', () => {
  it('lists the four plans with label, volume range and monthly price range', async () => {
    const gw = fakeGateway({ 'GET /v1/plans': () => json({ records: PLANS }) });
    await renderPlans();
    expect(screen.getByRole('heading', { name: 'Plans' })).toBeInTheDocument();
    const rows = ['basic', 'startup', 'growup', 'scaleup'].map((key) => screen.getByTestId(`plan-row-${key}`));
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'BASIC',
      'START UP',
      'GROW UP',
      'SCALE UP',
    ]);
    const startup = within(screen.getByTestId('plan-row-startup'));
    expect(startup.getByText('For expanding projects')).toBeInTheDocument();
    expect(startup.getByText('60.000 – 100.000')).toBeInTheDocument();
    expect(startup.getByText('$100 – $150')).toBeInTheDocument();
    expect(within(screen.getByTestId('plan-row-scaleup')).getByText('600.000 – 1.250.000')).toBeInTheDocument();
    expect(within(screen.getByTestId('plan-row-growup')).getByText('$242.50 – $547.50')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Edit / })).toHaveLength(4);
    expect(gw.to('GET', '/v1/plans')).toHaveLength(1);
  });

  it('edits label and prices: labelled inputs, per-month hints, busy Save, PATCH body, toast, list refreshed', async () => {
    let release: () => void = () => {};
    const saved: Plan = {
      ...STARTUP,
      label: 'For expanding teams',
      pricing: STARTUP.pricing.map((o, i) =>
        i === 1
          ? { ...o, yearly: { price: 1320, id: 'startup2-year' } }
          : i === 0
            ? { ...o, monthly: { ...o.monthly, price: 101 } }
            : o,
      ),
    };
    let listed = PLANS;
    const gw = fakeGateway({
      'GET /v1/plans': () => json({ records: listed }),
      'PATCH /v1/plans/:id': async () => {
        await new Promise<void>((resolve) => (release = resolve));
        listed = PLANS.map((p) => (p._id === saved._id ? saved : p));
        return json(saved);
      },
    });
    const user = userEvent.setup({ delay: null });
    await renderPlans();
    const panel = await openEditor(user, 'START UP');

    const label = within(panel).getByLabelText('Label');
    expect(label).toHaveValue('For expanding projects');
    await replace(user, label, 'For expanding teams');

    const monthly = within(panel).getByLabelText('START UP option 1 monthly price');
    expect(monthly).toHaveValue('100');
    await replace(user, monthly, '101');

    const yearly = within(panel).getByLabelText('START UP option 2 yearly price');
    expect(yearly).toHaveAccessibleDescription('$103.50/month'); // 1242 / 12
    await replace(user, yearly, '1320');
    expect(yearly).toHaveAccessibleDescription('$110/month');
    expect(within(panel).getByLabelText('START UP option 1 six-month price')).toHaveAccessibleDescription('$95/month');
    const yearlyId = within(panel).getByLabelText('START UP option 2 yearly price id');
    expect(yearlyId).toHaveValue('price_startup2_yearly');
    await replace(user, yearlyId, 'startup2-year');
    expect(within(panel).getByLabelText('START UP option 5 e-mails')).toHaveValue('100.000');

    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    const busy = await within(panel).findByRole('button', { name: /Save/ });
    await waitFor(() => expect(busy).toHaveAttribute('aria-busy', 'true'));
    expect(busy).toBeDisabled();
    expect(within(panel).getByLabelText('Label')).toBeDisabled();

    const expected = unchangedBody(STARTUP);
    expected.label = 'For expanding teams';
    expected.pricing[0] = { ...expected.pricing[0]!, monthly: { price: 101, id: 'price_startup1_monthly' } };
    expected.pricing[1] = { ...expected.pricing[1]!, yearly: { price: 1320, id: 'startup2-year' } };
    const patch = gw.to('PATCH', '/v1/plans/p-startup');
    expect(patch).toHaveLength(1);
    expect(patch[0]?.body).toEqual(expected);

    release();
    await waitFor(() => expect(success).toHaveBeenCalledWith('Plan saved.'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit START UP' })).not.toBeInTheDocument());
    const row = within(screen.getByTestId('plan-row-startup'));
    expect(row.getByText('For expanding teams')).toBeInTheDocument();
    expect(row.getByText('$101 – $150')).toBeInTheDocument();
    expect(failure).not.toHaveBeenCalled();
  });

  it('server field errors show under their inputs; others above the form; nothing toasted; the panel stays', async () => {
    fakeGateway({
      'GET /v1/plans': () => json({ records: PLANS }),
      'PATCH /v1/plans/:id': () =>
        json(
          {
            message: 'Invalid input',
            errors: {
              'pricing.1.yearly.id': ['This price id is used by another price.'],
              'pricing.2.emails': ['Use more e-mails than the option before.'],
              'features.0': ['This feature is already listed.'],
              'pricing.0.monthly.id': ['A subscription uses this price id.'],
              'pricing.0.key': ['Expected the option startup1 here.'],
            },
          },
          400,
        ),
    });
    const user = userEvent.setup({ delay: null });
    await renderPlans();
    const panel = await openEditor(user, 'START UP');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(within(panel).getByLabelText('START UP option 2 yearly price id')).toHaveAccessibleDescription(
        'This price id is used by another price.',
      ),
    );
    const yearlyId = within(panel).getByLabelText('START UP option 2 yearly price id');
    expect(yearlyId).toHaveAttribute('aria-invalid', 'true');
    expect(within(panel).getByLabelText('START UP option 3 e-mails')).toHaveAccessibleDescription(
      'Use more e-mails than the option before.',
    );
    expect(within(panel).getByLabelText('Feature 1')).toHaveAccessibleDescription('This feature is already listed.');
    expect(within(panel).getByLabelText('START UP option 1 monthly price id')).toHaveAccessibleDescription(
      'A subscription uses this price id.',
    );
    const alert = within(panel).getByRole('alert');
    expect(alert).toHaveTextContent('Some fields need attention');
    expect(alert).toHaveTextContent('Expected the option startup1 here.');
    expect(success).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Edit START UP' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('a failure without field errors shows the server message', async () => {
    fakeGateway({
      'GET /v1/plans': () => json({ records: PLANS }),
      'PATCH /v1/plans/:id': () => json({ message: 'You do not have permission to do this.' }, 403),
    });
    const user = userEvent.setup({ delay: null });
    await renderPlans();
    const panel = await openEditor(user, 'BASIC');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('You do not have permission to do this.');
    expect(success).not.toHaveBeenCalled();
  });

  it('checks the form before sending: empty or non-numeric prices, bad volumes, blank label', async () => {
    const gw = fakeGateway({ 'GET /v1/plans': () => json({ records: PLANS }) });
    const user = userEvent.setup({ delay: null });
    await renderPlans();
    const panel = await openEditor(user, 'GROW UP');
    await user.clear(within(panel).getByLabelText('Label'));
    await user.clear(within(panel).getByLabelText('GROW UP option 1 monthly price'));
    const six = within(panel).getByLabelText('GROW UP option 3 six-month price');
    await replace(user, six, '12,5');
    const yearly = within(panel).getByLabelText('GROW UP option 4 yearly price');
    await replace(user, yearly, '10.555');
    const emails = within(panel).getByLabelText('GROW UP option 2 e-mails');
    await replace(user, emails, '200000');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));

    expect(within(panel).getByLabelText('Label')).toHaveAccessibleDescription(/Enter a label\./);
    expect(within(panel).getByLabelText('GROW UP option 1 monthly price')).toHaveAccessibleDescription(
      'Enter a price.',
    );
    expect(six).toHaveAccessibleDescription('Enter a number, e.g. 112.50.');
    expect(yearly).toHaveAccessibleDescription(/Use at most 2 decimals\./);
    expect(emails).toHaveAccessibleDescription('Use dots as thousands separators, e.g. 10.000.');
    expect(gw.to('PATCH', '/v1/plans/p-growup')).toHaveLength(0);
  });

  it('features: add and remove rows; the PATCH sends them trimmed, in order', async () => {
    const gw = fakeGateway({
      'GET /v1/plans': () => json({ records: PLANS }),
      'PATCH /v1/plans/:id': (call) => json({ ...STARTUP, features: (call.body as { features: string[] }).features }),
    });
    const user = userEvent.setup({ delay: null });
    await renderPlans();
    const panel = await openEditor(user, 'START UP');
    expect(within(panel).getAllByRole('textbox', { name: /^Feature \d+$/ })).toHaveLength(4);

    await user.click(within(panel).getByRole('button', { name: 'Remove feature 2' }));
    expect(
      within(panel)
        .getAllByRole('textbox', { name: /^Feature \d+$/ })
        .map((i) => (i as HTMLInputElement).value),
    ).toEqual(['E-mail support', 'AI Powered Newsletters', 'Token Airdrops']);
    await user.click(within(panel).getByRole('button', { name: 'Add feature' }));
    const added = within(panel).getByLabelText('Feature 4');
    expect(added).toHaveValue('');
    await user.type(added, '  Priority onboarding ');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(gw.to('PATCH', '/v1/plans/p-startup')).toHaveLength(1));
    expect(gw.to('PATCH', '/v1/plans/p-startup')[0]?.body).toMatchObject({
      features: ['E-mail support', 'AI Powered Newsletters', 'Token Airdrops', 'Priority onboarding'],
    });
    await waitFor(() => expect(success).toHaveBeenCalledWith('Plan saved.'));
  });

  it('features: at least one row (its Remove disabled), at most twelve (Add disabled); a blank row is refused', async () => {
    const gw = fakeGateway({ 'GET /v1/plans': () => json({ records: PLANS }) });
    const user = userEvent.setup({ delay: null });
    await renderPlans();
    const panel = await openEditor(user, 'BASIC');
    expect(within(panel).getByRole('button', { name: 'Remove feature 1' })).toBeDisabled();
    const add = within(panel).getByRole('button', { name: 'Add feature' });
    for (let i = 0; i < 11; i += 1) await user.click(add);
    expect(within(panel).getAllByRole('textbox', { name: /^Feature \d+$/ })).toHaveLength(12);
    expect(add).toBeDisabled();
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(within(panel).getByLabelText('Feature 2')).toHaveAccessibleDescription('Enter a feature or remove the row.');
    expect(gw.to('PATCH', '/v1/plans/p-basic')).toHaveLength(0);
  });
});
