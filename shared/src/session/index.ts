export * from './store';
export * from './hooks';
export * from './actions';
export * from './upgrade';
