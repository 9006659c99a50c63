// Types of launch.mjs (plain JavaScript: scripts/system.mjs loads it without TypeScript).

/** The gateway package's folder (the processes' working directory). */
export const GATEWAY_DIR: string;

/** The gateway's Node flags (node-flags.json). */
export const GATEWAY_NODE_FLAGS: string[];

/** Node's arguments for a gateway process: `main`, `workers`, or a TypeScript file relative to gateway/. */
export function gatewayArgs(entry: 'main' | 'workers' | `${string}.ts`, extraFlags?: string[]): string[];
