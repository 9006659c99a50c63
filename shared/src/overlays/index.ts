/** Dialogs, slide-overs, dropdown menus and tooltips: everything built on floating-ui. */
export * from './dialog';
export * from './slide-over';
export * from './confirm-dialog';
export * from './dropdown';
export * from './tooltip';
export * from './use-closing-snapshot';
export * from './delete-dialog';
export * from './form-footer';
export * from './use-dialog-slot';
