import type { ComponentPropsWithRef } from 'react';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'link';
export type ButtonSize = 'sm' | 'md';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** While true: a 'Loading' status spinner, disabled, aria-busy (the name reads 'Loading <label>' meanwhile). */
  busy?: boolean;
}

const BASE =
  'inline-flex items-center justify-center gap-2 font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'rounded-control bg-brand-600 text-white shadow-sm hover:bg-brand-700 focus-visible:outline-brand-600',
  secondary:
    'rounded-control bg-white text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-brand-600',
  danger: 'rounded-control bg-red-600 text-white shadow-sm hover:bg-red-700 focus-visible:outline-red-600',
  link: 'rounded-sm text-brand-700 underline-offset-2 hover:underline focus-visible:outline-brand-600',
};

const SIZES: Record<ButtonSize, string> = {
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
};

/** The console's button. `type` defaults to "button"; `busy` shows a spinner and blocks clicks. */
export function Button({
  variant = 'primary',
  size = 'md',
  busy = false,
  disabled,
  type = 'button',
  className,
  children,
  ...rest
}: ButtonProps) {
  const padding = variant === 'link' ? 'text-sm' : SIZES[size];
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled === true || busy}
      aria-busy={busy || undefined}
      className={[BASE, VARIANTS[variant], padding, className].filter(Boolean).join(' ')}
    >
      {busy && <Spinner className="h-4 w-4" />}
      {children}
    </button>
  );
}
