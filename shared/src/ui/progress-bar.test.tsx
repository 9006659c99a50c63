import { render, screen } from '@testing-library/react';
import { ProgressBar, progressPercent } from './progress-bar';

describe('progressPercent', () => {
  it.each([
    [50, 0, 100, 50],
    [150, 0, 100, 100],
    [-5, 0, 100, 0],
    [3, 0, 4, 75],
    [1, 1, 1, 0],
    [Number.NaN, 0, 100, 0],
  ])('value %p in [%p, %p] is %p%%', (value, min, max, expected) => {
    expect(progressPercent(value, min, max)).toBe(expected);
  });
});

describe('ProgressBar', () => {
  it('is a labelled progressbar with its value and range', () => {
    render(<ProgressBar label="Import progress" value={42} />);
    const bar = screen.getByRole('progressbar', { name: 'Import progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '42');
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(screen.getByText('42%')).toBeInTheDocument();
  });

  it('clamps the value and reads out the value text', () => {
    render(<ProgressBar label="Upload" value={120} max={100} valueText="All bytes sent" />);
    const bar = screen.getByRole('progressbar', { name: 'Upload' });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(bar).toHaveAttribute('aria-valuetext', 'All bytes sent');
  });

  it('keeps the accessible name when the label is hidden', () => {
    render(<ProgressBar label="Quiet" value={10} hideLabel />);
    expect(screen.getByRole('progressbar', { name: 'Quiet' })).toBeInTheDocument();
    expect(screen.queryByText('10%')).toBeNull();
  });
});
