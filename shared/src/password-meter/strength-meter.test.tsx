import { act, render, screen, waitFor } from '@testing-library/react';
import { PasswordStrengthMeter } from './strength-meter';

const meter = () => screen.getByRole('meter', { name: 'Password strength' });

describe('the password strength meter', () => {
  it('shows nothing for an empty password', async () => {
    const { container } = render(<PasswordStrengthMeter password="" userInputs={[]} />);
    // Give the checker time to load: still nothing.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(container).toBeEmptyDOMElement();
  });

  it('says why a weak password is weak and how to make it stronger (zxcvbn feedback)', async () => {
    render(<PasswordStrengthMeter password="aaaaaaaaaa" userInputs={[]} />);
    await waitFor(() => expect(meter()).toHaveAttribute('aria-valuetext', 'Very weak'));
    expect(meter()).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getByText('Repeated characters like "aaa" are easy to guess.')).toBeInTheDocument();
    expect(screen.getByText('Avoid repeated words and characters.')).toBeInTheDocument();
  });

  it("names the person's own words as the reason", async () => {
    render(<PasswordStrengthMeter password="owner@acme.test" userInputs={['owner@acme.test', 'Acme']} />);
    await waitFor(() =>
      expect(
        screen.getByText('Parts of your name, e-mail address or community name are easy to guess.'),
      ).toBeInTheDocument(),
    );
  });

  it('gives a strong password its word and no reason', async () => {
    render(<PasswordStrengthMeter password="correct horse battery staple" userInputs={[]} />);
    await waitFor(() => expect(meter()).toHaveAttribute('aria-valuetext', 'Strong'));
    expect(screen.queryByTestId('password-feedback')).not.toBeInTheDocument();
  });
});
