import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InfoDialog } from '../src/components/info-dialog';

type Pwned = typeof window & { __pwned?: number };
const win: Pwned = window;

describe('<InfoDialog>', () => {
  afterEach(() => {
    delete win.__pwned;
  });

  it('shows the title, the sanitised HTML body, the mascot and Close Window', async () => {
    const onClose = jest.fn();
    const user = userEvent.setup();
    render(
      <InfoDialog
        open
        onClose={onClose}
        title="Contact your account manager"
        html="<p>We aren't able to <strong>change</strong> your plan.</p>"
        mascot="/img/mascot.png"
        mascotAlt="Mascot"
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Contact your account manager' });
    expect(within(dialog).getByText('change').tagName).toBe('STRONG');
    expect(dialog).toHaveAccessibleDescription("We aren't able to change your plan.");
    expect(within(dialog).getByRole('img', { name: 'Mascot' })).toHaveAttribute('src', '/img/mascot.png');
    await user.click(within(dialog).getByRole('button', { name: 'Close Window' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape', async () => {
    const onClose = jest.fn();
    const user = userEvent.setup();
    render(<InfoDialog open onClose={onClose} title="Info" html="<p>x</p>" />);
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('control: the same payload WITHOUT sanitising does run in this environment', () => {
    // Proves the test below can fail: jsdom here runs inline handlers.
    const host = document.createElement('div');
    document.body.append(host);
    host.innerHTML = '<img src=x onerror="window.__pwned=1">';
    host.querySelector('img')?.dispatchEvent(new Event('error'));
    expect(win.__pwned).toBe(1);
    host.remove();
  });

  it('never runs a script or event handler from the body', async () => {
    const user = userEvent.setup();
    const html =
      '<p>Hello</p><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>' +
      '<a href="javascript:window.__pwned=3">click</a><p onmouseover="window.__pwned=4">hover</p>' +
      '<svg><animate onbegin="window.__pwned=5"></animate></svg><iframe srcdoc="<script>parent.__pwned=6</script>"></iframe>';
    render(<InfoDialog open onClose={() => {}} title="Body" html={html} />);
    const dialog = await screen.findByRole('dialog');

    expect(dialog.querySelector('img, script, iframe, svg')).toBeNull();
    expect(dialog.querySelector('[onerror], [onmouseover], [onbegin]')).toBeNull();
    for (const element of Array.from(dialog.querySelectorAll('*'))) {
      element.dispatchEvent(new Event('error'));
      element.dispatchEvent(new Event('mouseover', { bubbles: true }));
    }
    const link = within(dialog).getByText('click');
    expect(link).not.toHaveAttribute('href');
    await user.click(link);
    await user.hover(within(dialog).getByText('hover'));
    await waitFor(() => expect(win.__pwned).toBeUndefined());
  });
});

describe('InfoDialog while closing', () => {
  it('InfoDialog shows the last open texts during the leave transition', async () => {
    const { rerender } = render(<InfoDialog open title="Plan updated" html="<p>Done</p>" onClose={() => {}} />);
    expect(await screen.findByRole('dialog', { name: 'Plan updated' })).toBeInTheDocument();
    rerender(<InfoDialog open={false} title="" html="" onClose={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Plan updated' })).toHaveTextContent('Done');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
