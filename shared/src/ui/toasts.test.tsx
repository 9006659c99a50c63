import { act, render, screen } from '@testing-library/react';
import type { ToastOptions } from 'react-hot-toast';
import { createNotify, createToastGate, notify, type ToastSink } from './toasts';
import { ConsoleToaster } from './toaster';
import { TOAST_DEDUPE_MS, TOAST_DURATION } from './timings';

function clock(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

function fakeSink() {
  const shown: Array<{ kind: 'success' | 'error'; message: string; options: ToastOptions }> = [];
  const sink: ToastSink = {
    success: (message, options) => {
      shown.push({ kind: 'success', message, options });
      return `t${shown.length}`;
    },
    error: (message, options) => {
      shown.push({ kind: 'error', message, options });
      return `t${shown.length}`;
    },
    dismiss: jest.fn(),
  };
  return { shown, sink };
}

describe('toast constants', () => {
  it('match the spec', () => {
    expect(TOAST_DURATION).toBe(5000);
    expect(TOAST_DEDUPE_MS).toBe(390);
  });
});

describe('createToastGate', () => {
  it('blocks the same text within 390 ms and allows it after', () => {
    const c = clock();
    const gate = createToastGate(c.now);
    expect(gate.allow('Saved')).toBe(true);
    c.advance(389);
    expect(gate.allow('Saved')).toBe(false);
    c.advance(1);
    expect(gate.allow('Saved')).toBe(true);
  });

  it('measures from the last toast shown, not from blocked attempts', () => {
    const c = clock();
    const gate = createToastGate(c.now);
    gate.allow('Saved');
    c.advance(300);
    expect(gate.allow('Saved')).toBe(false);
    c.advance(90);
    expect(gate.allow('Saved')).toBe(true);
  });

  it('lets multiple:true through and other texts through', () => {
    const c = clock();
    const gate = createToastGate(c.now);
    expect(gate.allow('Saved')).toBe(true);
    expect(gate.allow('Saved', true)).toBe(true);
    expect(gate.allow('Deleted')).toBe(true);
  });
});

describe('createNotify', () => {
  it('shows success and error with 5000 ms, at the bottom centre (clear of page actions)', () => {
    const { shown, sink } = fakeSink();
    const n = createNotify({ now: clock().now, sink });
    expect(n.success('Widget saved.')).toBe('t1');
    n.error('Unable to save');
    expect(shown).toEqual([
      {
        kind: 'success',
        message: 'Widget saved.',
        options: { duration: 5000, position: 'bottom-center', removeDelay: 300 },
      },
      {
        kind: 'error',
        message: 'Unable to save',
        options: { duration: 5000, position: 'bottom-center', removeDelay: 300 },
      },
    ]);
  });

  it('blocks a duplicate within 390 ms, allows it after, and always allows multiple:true', () => {
    const c = clock();
    const { shown, sink } = fakeSink();
    const n = createNotify({ now: c.now, sink });
    n.success('Changes have been saved.');
    c.advance(200);
    expect(n.success('Changes have been saved.')).toBeNull();
    expect(n.success('Changes have been saved.', { multiple: true })).toBe('t2');
    c.advance(TOAST_DEDUPE_MS);
    expect(n.success('Changes have been saved.')).toBe('t3');
    expect(shown).toHaveLength(3);
  });

  it('passes duration and id through', () => {
    const { shown, sink } = fakeSink();
    createNotify({ now: clock().now, sink }).success('Widget deleted.', { duration: 2000, id: 'w' });
    expect(shown[0]?.options).toMatchObject({ duration: 2000, id: 'w' });
  });

  it('dismisses through the sink', () => {
    const { sink } = fakeSink();
    createNotify({ now: clock().now, sink }).dismiss('x');
    expect(sink.dismiss).toHaveBeenCalledWith('x');
  });
});

describe('<ConsoleToaster> with notify', () => {
  beforeAll(() => {
    // react-hot-toast asks for prefers-reduced-motion; jsdom has no matchMedia.
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }),
    });
  });

  it('shows a toast raised through notify, as plain text', async () => {
    render(<ConsoleToaster />);
    act(() => {
      notify.error('<b>Unable</b> <img src=x onerror="window.__pwned=1">');
    });
    const status = await screen.findByText('<b>Unable</b> <img src=x onerror="window.__pwned=1">');
    expect(status.querySelector('b, img')).toBeNull();
    act(() => {
      notify.success('Plan updated!');
    });
    expect(await screen.findByText('Plan updated!')).toBeInTheDocument();
  });
});
