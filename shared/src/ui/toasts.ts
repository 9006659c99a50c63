import toast, { type ToastOptions } from 'react-hot-toast';
import { TOAST_COLLAPSE_MS, TOAST_DEDUPE_MS, TOAST_DURATION, TOAST_POSITION } from './timings';

export interface NotifyOptions {
  /** Auto-close after this many ms (default TOAST_DURATION; widget toasts use TOAST_SHORT_DURATION). */
  duration?: number;
  /** Reuse an id to replace a toast in place. */
  id?: string;
  /** Show even when the same text was shown a moment ago. */
  multiple?: boolean;
}

/** Where toasts go: react-hot-toast in the app, a fake in tests. */
export interface ToastSink {
  success: (message: string, options: ToastOptions) => string;
  error: (message: string, options: ToastOptions) => string;
  dismiss: (id?: string) => void;
}

/** Decides whether a toast may show: same text within the dedupe window is blocked unless `multiple`. */
export interface ToastGate {
  allow: (message: string, multiple?: boolean) => boolean;
}

export function createToastGate(now: () => number = Date.now, windowMs: number = TOAST_DEDUPE_MS): ToastGate {
  const lastShown = new Map<string, number>();
  return {
    allow(message, multiple = false) {
      const at = now();
      for (const [text, time] of lastShown) if (at - time >= windowMs) lastShown.delete(text);
      const previous = lastShown.get(message);
      if (!multiple && previous !== undefined && at - previous < windowMs) return false;
      lastShown.set(message, at);
      return true;
    },
  };
}

export interface Notify {
  /** Shows a success toast; returns its id, or null when blocked as a duplicate. */
  success: (message: string, options?: NotifyOptions) => string | null;
  /** Shows an error toast; returns its id, or null when blocked as a duplicate. */
  error: (message: string, options?: NotifyOptions) => string | null;
  dismiss: (id?: string) => void;
}

const reactHotToast: ToastSink = {
  success: (message, options) => toast.success(message, options),
  error: (message, options) => toast.error(message, options),
  dismiss: (id) => toast.dismiss(id),
};

/** Build a notifier. Messages are plain strings: they render as text, never as HTML. */
export function createNotify({
  now = Date.now,
  sink = reactHotToast,
}: { now?: () => number; sink?: ToastSink } = {}): Notify {
  const gate = createToastGate(now);
  const show = (kind: 'success' | 'error', message: string, options: NotifyOptions = {}): string | null => {
    if (!gate.allow(message, options.multiple)) return null;
    const toastOptions: ToastOptions = {
      duration: options.duration ?? TOAST_DURATION,
      position: TOAST_POSITION,
      removeDelay: TOAST_COLLAPSE_MS,
    };
    if (options.id !== undefined) toastOptions.id = options.id;
    return sink[kind](message, toastOptions);
  };
  return {
    success: (message, options) => show('success', message, options),
    error: (message, options) => show('error', message, options),
    dismiss: (id) => sink.dismiss(id),
  };
}

/** The console's toasts (bottom-centre, 5000 ms, duplicates within ~390 ms blocked). Shown by the shell's single ConsoleToaster. */
export const notify: Notify = createNotify();
