export * from './vocabulary';
export * from './rules';
