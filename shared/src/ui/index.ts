/**
 * The light UI kit: buttons, fields, toasts, progress. Nothing here loads floating-ui or DOMPurify, so
 * the sign-in screen can use it; dialogs, menus and tooltips are `@console/shared/overlays`.
 */
export * from './timings';
export * from './spinner';
export * from './button';
export * from './lock-icon';
export { firstError, counterText, type FieldError } from './field-parts';
export * from './text-field';
export * from './text-area';
export * from './select-field';
export * from './toasts';
export * from './toaster';
export * from './progress-bar';
export * from './image-field';
export * from './copy-field';
export * from './switch-field';
