import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// The same launcher `npm start` uses, on ports of their own and a fresh database.
import { startSystem } from '../../scripts/system.mjs';

export type System = Awaited<ReturnType<typeof startSystem>>;

// E2E_PORT_BASE moves every port (base+0 .. base+6 for the apps and the sample applet, base+1000 for the gateway,
// base+1001 for its inbound SMTP receiver, base+1002 for the local chain), so two
// checkouts can run their suites on one machine at once.
const base = Number(process.env.E2E_PORT_BASE ?? 3100);
export const E2E_ENV = {
  SHELL_PORT: String(base),
  MFE_ENGAGEMENT_PORT: String(base + 1),
  MFE_ONBOARDING_PORT: String(base + 2),
  MFE_ADVERTISING_PORT: String(base + 3),
  MFE_ACCOUNT_PORT: String(base + 4),
  MFE_ADMIN_PORT: String(base + 5),
  APPLET_TOKEN_GATE_PORT: String(base + 6),
  GATEWAY_PORT: String(base + 1000),
  INBOUND_SMTP_PORT: String(base + 1001),
  CHAIN_PORT: String(base + 1002),
};

/**
 * A system on the suites' ports and a fresh database. The local chain starts only for the suites that
 * ask for it (`{ LOCAL_CHAIN: 'on' }`): deploying its token costs every other suite seconds for nothing.
 */
export async function startTestSystem(extra: Record<string, string> = {}): Promise<System & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-e2e-'));
  const system = await startSystem({ ...E2E_ENV, LOCAL_CHAIN: 'off', GATEWAY_DATA_DIR: dataDir, ...extra });
  return Object.assign(system, { dataDir });
}
