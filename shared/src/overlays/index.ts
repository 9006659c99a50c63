/** Dialogs, slide-overs, dropdown menus and tooltips: everything built on floating-ui. */
export * from './dialog';
export * from './slide-over';
export * from './info-dialog';
export * from './confirm-dialog';
export * from './upgrade-dialog';
export * from './stake4ads-popup';
export * from './dropdown';
export * from './tooltip';
