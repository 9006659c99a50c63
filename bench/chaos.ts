// The campaign send under faults at scale (gateway/test/chaos.ts; docs/sending.md): BENCH_CHAOS_RECIPIENTS
// (default 100,000) recipients, on a throw-away PostgreSQL server (scripts/pg-server.mjs, port BENCH_PG_PORT
// or BENCH_PORT_BASE+320) with two worker processes, one killed, then both, then one frozen past its
// lease; BENCH_CHAOS_BACKEND=pglite: embedded PGlite, the gateway killed twice. Prints the same counts as
// the chaos test asserts: received, distinct, delivered, unconfirmed, the API's figures, rows moved back
// from delivered, and how long the takeover of a frozen worker took.
import { runChaos } from '../gateway/test/chaos.ts';
import { startPostgres } from '../scripts/pg-server.mjs';
import { table } from './lib.ts';

const backend = process.env.BENCH_CHAOS_BACKEND === 'pglite' ? 'pglite' : 'postgres';
const recipients = Number(process.env.BENCH_CHAOS_RECIPIENTS ?? 100_000);
const port = Number(process.env.BENCH_PG_PORT ?? Number(process.env.BENCH_PORT_BASE ?? 3200) + 320);
const server = backend === 'postgres' ? startPostgres(port) : null;
try {
  const r = await runChaos({
    recipients,
    serverUrl: server?.url ?? null,
    pool: 8,
    peerDelayMs: 1,
    log: (line) => console.log(line),
    ...(process.env.CHAOS_SEED ? { seed: Number(process.env.CHAOS_SEED) } : {}),
  });
  console.log(`\n## Campaign send under faults (${backend}, ${recipients} recipients, ${r.seconds.toFixed(0)} s)\n`);
  console.log(
    table([
      ['measure', 'value'],
      ['faults', r.faults.join('; ')],
      ['messages received by the peer (distinct)', `${r.received} (${r.distinct})`],
      ['rows delivered / unconfirmed / other', `${r.delivered} / ${r.unconfirmed} / ${JSON.stringify(r.other)}`],
      ['delivered rows never received', String(r.deliveredNotReceived)],
      ['received messages neither delivered nor flagged', String(r.receivedNotFlagged)],
      ['API: status, recipients, sent, delivered, unconfirmed', Object.values(r.api).join(', ')],
      ['rows moved back from delivered', String(r.movedBack)],
      ['frozen worker taken over after', r.takeoverSeconds === null ? '-' : `${r.takeoverSeconds.toFixed(1)} s`],
    ]),
  );
} finally {
  server?.stop();
}
