import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// The same launcher `npm start` uses, on ports of their own and a fresh database.
import { startSystem } from '../../scripts/system.mjs';

export type System = Awaited<ReturnType<typeof startSystem>>;

export const E2E_ENV = {
  SHELL_PORT: '3100',
  MFE_ENGAGEMENT_PORT: '3101',
  MFE_ONBOARDING_PORT: '3102',
  MFE_ADVERTISING_PORT: '3103',
  MFE_ACCOUNT_PORT: '3104',
  MFE_ADMIN_PORT: '3105',
  GATEWAY_PORT: '4100',
};

export async function startTestSystem(extra: Record<string, string> = {}): Promise<System & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-e2e-'));
  const system = await startSystem({ ...E2E_ENV, GATEWAY_DATA_DIR: dataDir, ...extra });
  return Object.assign(system, { dataDir });
}
