export * from './vocabulary';
export * from './rules';
export * from './team';
