// The platform DKIM key of the suites' gateways: one, generated once per machine and kept in the
// temporary directory (a key generated in each gateway's fresh data directory would cost every start a
// key pair).
import os from 'node:os';
import path from 'node:path';
import { keptKey } from '../src/mail/platform-dkim';

export const testPlatformKeyFile = (): string => keptKey(path.join(os.tmpdir(), 'console-gateway-test-key')).file;
