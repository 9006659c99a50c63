/** List behaviour (query state in the URL, pages, sorting) and the one grid that shows it. */
export * from './list-query';
export * from './use-list-query';
export * from './data-grid';
export * from './query-grid';
export * from './pagination';
export * from './use-url-filters';
