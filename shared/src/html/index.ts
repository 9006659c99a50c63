/** Sanitised HTML (DOMPurify): the one way any bundle renders an HTML body. */
export * from './sanitize';
export * from './safe-html';
