import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FormFooter } from './form-footer';

describe('<FormFooter>', () => {
  it('cancels, and submits the form it names from outside it', async () => {
    const onCancel = jest.fn();
    const onSubmit = jest.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <>
        <form id="f" onSubmit={onSubmit} />
        <FormFooter formId="f" busy={false} submitLabel="Add domain" onCancel={onCancel} />
      </>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Add domain' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('while busy: Cancel is disabled and the submit button is busy', () => {
    render(<FormFooter formId="f" busy submitLabel="Save" onCancel={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    const submit = screen.getByRole('button', { name: /Save/ });
    expect(submit).toHaveAttribute('aria-busy', 'true');
    expect(submit).toBeDisabled();
  });
});
