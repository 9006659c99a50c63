import { Toaster } from 'react-hot-toast';
import { TOAST_COLLAPSE_MS, TOAST_DURATION, TOAST_OFFSET_PX, TOAST_POSITION } from './timings';

/**
 * The single Toaster, mounted once by the shell. react-hot-toast is a Module Federation singleton,
 * so a toast raised in a remote shows here.
 */
export function ConsoleToaster() {
  return (
    <Toaster
      position={TOAST_POSITION}
      containerStyle={{ bottom: TOAST_OFFSET_PX }}
      toastOptions={{
        duration: TOAST_DURATION,
        removeDelay: TOAST_COLLAPSE_MS,
        className: 'text-sm',
        style: { maxWidth: 420 },
      }}
    />
  );
}
