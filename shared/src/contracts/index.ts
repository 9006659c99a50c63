/** Every request and response schema the console and the gateway share (zod/mini). */
export * from '@console/shared/contracts/core';
// The access vocabulary (roles, permissions, features, plan keys) is part of the contract.
export * from '@console/shared/access';
export * from './tenants';
export * from './audience';
export * from './segments';
export * from './token-amount';
export * from './onboarding';
export * from './billing';
export * from './checkout';
export * from './templates';
export * from './campaigns';
export * from './overview';
export * from './team';
export * from './account';
export * from './domains';
export * from './applets';
export * from './apps';
export * from './webhooks';
export * from './api-keys';
export * from './transactional';
export * from './onchain';
export * from './automations';
