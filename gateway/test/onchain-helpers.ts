/**
 * Helpers of the on-chain suites: anvil's test methods (snapshot, revert, mine), an RPC proxy that can
 * fail or rate-limit, and the DemoToken's ABI as a console user pastes it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One JSON-RPC call (anvil's `evm_*` and `anvil_*` methods included). */
export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

export const snapshot = (url: string) => rpc<string>(url, 'evm_snapshot');
export const revert = (url: string, id: string) => rpc<boolean>(url, 'evm_revert', [id]);
export async function mine(url: string, blocks = 1): Promise<void> {
  await rpc(url, 'anvil_mine', [`0x${blocks.toString(16)}`]);
}
export async function blockNumber(url: string): Promise<bigint> {
  return BigInt(await rpc<string>(url, 'eth_blockNumber'));
}

/**
 * pass: forward; fail: HTTP 500; rate_limit: HTTP 429; cap_range: forward, but answer an `eth_getLogs`
 * over more than 2 blocks with a node's "too many results" error.
 */
export type ProxyMode = 'pass' | 'fail' | 'rate_limit' | 'cap_range';

export interface RpcProxy {
  url: string;
  mode: ProxyMode;
  /** Requests answered with a failure, with their times (ms). */
  refused: number[];
  close(): Promise<void>;
}

/** An HTTP JSON-RPC proxy in front of `target`: passes requests on, or answers 500 / 429 as told. */
export async function rpcProxy(target: string): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: '', mode: 'pass', refused: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (proxy.mode === 'cap_range') {
        const call = JSON.parse(body.toString('utf8')) as {
          id: number;
          method: string;
          params: { fromBlock: string; toBlock: string }[];
        };
        const filter = call.method === 'eth_getLogs' ? call.params[0] : undefined;
        if (filter && BigInt(filter.toBlock) - BigInt(filter.fromBlock) + 1n > 2n) {
          proxy.refused.push(Date.now());
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: call.id,
              error: { code: -32005, message: 'query returned more than 10000 results' },
            }),
          );
          return;
        }
      } else if (proxy.mode !== 'pass') {
        proxy.refused.push(Date.now());
        if (proxy.mode === 'rate_limit') {
          res.writeHead(429, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'rate limit exceeded' } }));
        } else {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('upstream node is down');
        }
        return;
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(await r.text());
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 20_000, what = 'condition') {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
