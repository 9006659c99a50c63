export * from './list-query';
export * from './use-list-query';
