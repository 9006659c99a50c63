/**
 * The contracts the session core needs (errors, pagination, sign-in and verify): an entry of its own so
 * the sign-in screen loads these few schemas and not every area's contracts (see shared/README.md).
 */
export * from './common';
export * from './auth';
