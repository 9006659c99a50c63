import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { TextField } from './text-field';
import { TextArea } from './text-area';

describe('<TextField>', () => {
  it('is labelled and limits input to 100 characters by default', () => {
    render(<TextField label="Title" />);
    expect(screen.getByLabelText('Title')).toHaveAttribute('maxLength', '100');
  });

  it('shows a remaining/max counter that follows typing (uncontrolled)', async () => {
    const user = userEvent.setup();
    render(<TextField label="Title" showCounter maxLength={10} defaultValue="ab" />);
    expect(screen.getByTestId('field-counter')).toHaveTextContent('8/10');
    await user.type(screen.getByLabelText('Title'), 'cdefghijklmnop');
    expect(screen.getByLabelText('Title')).toHaveValue('abcdefghij');
    expect(screen.getByTestId('field-counter')).toHaveTextContent('0/10');
  });

  it('counts a controlled value', async () => {
    function Controlled() {
      const [value, setValue] = useState('');
      return <TextField label="Alias" showCounter value={value} onChange={(e) => setValue(e.target.value)} />;
    }
    const user = userEvent.setup();
    render(<Controlled />);
    expect(screen.getByTestId('field-counter')).toHaveTextContent('100/100');
    await user.type(screen.getByLabelText('Alias'), 'hello');
    expect(screen.getByTestId('field-counter')).toHaveTextContent('95/100');
  });

  it('has no counter unless asked', () => {
    render(<TextField label="Title" />);
    expect(screen.queryByTestId('field-counter')).not.toBeInTheDocument();
  });

  it('shows only the first error under the field, with aria-invalid and aria-describedby', () => {
    render(<TextField label="Website" error={['The URL is not valid.', 'The URL is too long.']} />);
    const input = screen.getByLabelText('Website');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('The URL is not valid.');
    expect(screen.getByText('The URL is not valid.')).toBeInTheDocument();
    expect(screen.queryByText('The URL is too long.')).not.toBeInTheDocument();
  });

  it('accepts a single error string and no error', () => {
    const { rerender } = render(<TextField label="Email" error="Required" />);
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Required');
    rerender(<TextField label="Email" error={undefined} />);
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-describedby');
  });

  it('describes by hint, error and counter together', () => {
    render(
      <TextField
        label="Slug"
        hint="Lowercase letters"
        error="Taken"
        showCounter
        maxLength={20}
        value="acme"
        onChange={() => {}}
      />,
    );
    expect(screen.getByLabelText('Slug')).toHaveAccessibleDescription('Taken Lowercase letters 16/20');
  });
});

describe('<TextArea>', () => {
  it('limits to 500 characters by default and counts', async () => {
    const user = userEvent.setup();
    render(<TextArea label="Short description" showCounter />);
    const area = screen.getByLabelText('Short description');
    expect(area.tagName).toBe('TEXTAREA');
    expect(area).toHaveAttribute('maxLength', '500');
    expect(screen.getByTestId('field-counter')).toHaveTextContent('500/500');
    await user.type(area, 'abc');
    expect(screen.getByTestId('field-counter')).toHaveTextContent('497/500');
  });

  it('shows the first error', () => {
    render(<TextArea label="Description" error={['Too long', 'Other']} maxLength={9999999} />);
    const area = screen.getByLabelText('Description');
    expect(area).toHaveAttribute('aria-invalid', 'true');
    expect(area).toHaveAccessibleDescription('Too long');
    expect(area).toHaveAttribute('maxLength', '9999999');
  });
});
