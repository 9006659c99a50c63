/** Where each part of the system runs (topology.mjs). */
export interface AppPlace {
  pkg: string;
  name: string;
  /** The environment variable that moves its port. */
  portEnv: string;
  /** Its port when that variable is not set. */
  port: number;
  audience?: 'tenant' | 'admin';
  applet?: boolean;
}
export const APPS: readonly AppPlace[];
export const GATEWAY: { portEnv: string; port: number };
export const INBOUND_SMTP: { portEnv: string; port: number };
export const CHAIN: { portEnv: string; port: number };
export function portOf(app: AppPlace, env?: NodeJS.ProcessEnv): number;
export function gatewayUrl(env?: NodeJS.ProcessEnv): string;
export function baseUrlOf(app: AppPlace, env?: NodeJS.ProcessEnv): string;
export function appletOrigins(env?: NodeJS.ProcessEnv): string[];
