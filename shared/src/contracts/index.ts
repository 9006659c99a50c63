export * from './common';
export * from './auth';
export * from './tenants';
export * from '../access/vocabulary';
export * from './audience';
export * from './segments';
export * from './onboarding';
export * from './billing';
