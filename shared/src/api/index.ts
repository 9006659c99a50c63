export * from './client';
export * from './form-errors';
