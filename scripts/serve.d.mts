import type { Server } from 'node:http';
export function createAppServer(pkg: string, env?: NodeJS.ProcessEnv): Server;
