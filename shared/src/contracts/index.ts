export * from './common';
export * from './auth';
export * from './tenants';
export * from '../access/vocabulary';
