export * from './client';
export * from './provider';
