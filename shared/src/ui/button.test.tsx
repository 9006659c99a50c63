import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from './button';
import { Spinner } from './spinner';

describe('<Button>', () => {
  it('is a type=button by default and clicks', async () => {
    const onClick = jest.fn();
    render(<Button onClick={onClick}>Save</Button>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toHaveAttribute('type', 'button');
    await userEvent.setup().click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('busy: Loading status spinner, disabled, aria-busy, no clicks', async () => {
    const onClick = jest.fn();
    render(
      <Button busy onClick={onClick}>
        Sign in
      </Button>,
    );
    const button = screen.getByRole('button', { name: /Sign in/ });
    expect(button).toBeDisabled();
    expect(button).toContainElement(screen.getByRole('status', { name: 'Loading' }));
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button.querySelector('.animate-spin')).not.toBeNull();
    await userEvent.setup().click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it.each([
    ['primary', 'bg-brand-600'],
    ['secondary', 'bg-white'],
    ['danger', 'bg-red-600'],
    ['link', 'text-brand-700'],
  ] as const)('variant %s uses %s', (variant, cls) => {
    render(<Button variant={variant}>x</Button>);
    expect(screen.getByRole('button')).toHaveClass(cls);
  });
});

describe('<Spinner>', () => {
  it("is a status named 'Loading'", () => {
    render(<Spinner />);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
  });

  it('can be decorative', () => {
    render(<Spinner decorative />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
