// The templates renderer (gateway/src/templates) on the newsletter starter, in this one process
// (one core: Node runs it on one thread):
// - compiling a version: `mjml` 5 alone, and the whole save-time compile (Liquid checks, merge tags
//   protected, MJML, the text part, the compiled parts checked), median and p95;
// - merging per recipient: a PreparedTemplate (parsed once, bound to the send: the community's outputs
//   merged once) rendered for distinct contacts (subject, preview text, HTML and text part, scope
//   built per recipient), messages per second, next to a bare string replace of the same tags in the
//   same parts for the same contacts, in the same run; and the same unbound.
// Timings are CPU time of this process as well as wall time: on a loaded machine the CPU time is
// what one core spent.
import mjml2html from 'mjml';
import {
  bindSend,
  compileHere,
  contactScope,
  prepareTemplate,
  renderMessage,
  STARTERS,
  type MergeScope,
} from '../gateway/src/templates/index.ts';
import { median, p95, table } from './lib.ts';

const COMPILES = Number(process.env.BENCH_TEMPLATE_COMPILES ?? 200);
const RECIPIENTS = Number(process.env.BENCH_TEMPLATE_RECIPIENTS ?? 50_000);
const settings = { publicUrl: 'https://gateway.example.test' };
const community = {
  name: 'Acme DAO',
  url: 'https://gateway.example.test/c/acme-dao',
  postal_address: '1 Chain St, Berlin',
};
const links = {
  unsubscribe_url: 'https://gateway.example.test/u/',
  view_in_browser_url: 'https://gateway.example.test/v/',
};

/** CPU milliseconds of this process (what one core spent, whatever else the machine runs). */
function cpuMs(since?: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** Wall and CPU milliseconds of one run (nothing else runs in this process meanwhile). */
async function timed<T>(wall: number[], cpu: number[], run: () => Promise<T>): Promise<T> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await run();
  wall.push(performance.now() - t0);
  cpu.push(cpuMs(c0));
  return value;
}

/** Runs `n` times; per second of wall time and of CPU time. */
function rate(n: number, run: (i: number) => number): { wall: number; cpu: number; bytes: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let bytes = 0;
  for (let i = 0; i < n; i++) bytes += run(i);
  return { wall: (n / (performance.now() - t0)) * 1000, cpu: (n / cpuMs(c0)) * 1000, bytes };
}

function scopeOf(i: number): MergeScope {
  return contactScope(
    {
      email: `member${i}@example.test`,
      wallet: null,
      first_name: i % 5 === 0 ? '' : `Member${i}`,
      last_name: 'Doe',
      attributes: {},
    },
    [],
    community,
    { unsubscribe_url: `${links.unsubscribe_url}${i}`, view_in_browser_url: `${links.view_in_browser_url}${i}` },
  );
}

/** The floor: the same output tags replaced by the recipient's values with one regular expression per part. */
function bareReplace(parts: string[], s: MergeScope): string[] {
  const values: Record<string, string> = {
    '{{ contact.first_name | default: "there" }}': s.contact.first_name ? String(s.contact.first_name) : 'there',
    '{{ community.name }}': s.community.name,
    '{{ community.url }}': s.community.url,
    '{{ community.postal_address }}': s.community.postal_address,
    '{{ unsubscribe_url }}': s.unsubscribe_url,
    '{{ view_in_browser_url }}': s.view_in_browser_url,
  };
  return parts.map((part) => part.replace(/\{\{[^}]*\}\}/g, (tag) => values[tag] ?? ''));
}

export async function templatesBench(): Promise<string> {
  const design = STARTERS.newsletter.design(settings);
  const mjmlMs: number[] = [];
  const mjmlCpu: number[] = [];
  const compileMs: number[] = [];
  const compileCpu: number[] = [];
  for (let i = 0; i < 20; i++) await compileHere(design, settings); // warm-up
  for (let i = 0; i < COMPILES; i++) {
    await timed(mjmlMs, mjmlCpu, () => mjml2html(design.mjml, { validationLevel: 'soft', fonts: {} }));
    await timed(compileMs, compileCpu, () => compileHere(design, settings));
  }
  const compiled = await compileHere(design, settings);
  const t0 = performance.now();
  const prepared = prepareTemplate(design, compiled);
  const prepareMs = performance.now() - t0;

  const parts = [design.subject, design.preview_text, compiled.html, compiled.text];
  const tags = new Set(parts.flatMap((p) => p.match(/\{\{[^}]*\}\}|\{%[^%]*%\}/g) ?? []));
  // Check both ways agree on a recipient before timing them.
  const check = renderMessage(bindSend(prepared, { community: scopeOf(1).community }), scopeOf(1));
  const bare = bareReplace(parts, scopeOf(1));
  if (!bare[2]?.includes('Member1') || !check.html.includes('Member1')) throw new Error('the two merges disagree');

  const bound = bindSend(prepared, { community: scopeOf(0).community });
  const merge = (template: typeof prepared) => (i: number) => {
    const m = renderMessage(template, scopeOf(i));
    return m.subject.length + m.preview_text.length + m.html.length + m.text.length;
  };
  const liquid = merge(bound);
  const replaced = (i: number) => bareReplace(parts, scopeOf(i)).reduce((n, p) => n + p.length, 0);
  rate(2000, liquid); // warm-up
  rate(2000, replaced);
  const merged = rate(RECIPIENTS, liquid);
  const floor = rate(RECIPIENTS, replaced);
  const unbound = rate(RECIPIENTS, merge(prepared));
  if (merged.bytes === 0 || floor.bytes === 0) throw new Error('nothing rendered');
  const round = (n: number) => Math.round(n).toLocaleString('en-US');
  const ms = (xs: number[]) => `${median(xs).toFixed(1)} ms`;
  const ms95 = (xs: number[]) => `${p95(xs).toFixed(1)} ms`;

  const rows: (string | number)[][] = [
    ['measure', 'CPU median', 'CPU p95', 'wall median', 'wall p95', 'goal'],
    ['mjml 5 alone (newsletter)', ms(mjmlCpu), ms95(mjmlCpu), ms(mjmlMs), ms95(mjmlMs), 'p95 < 50 ms'],
    ['whole compile of a version', ms(compileCpu), ms95(compileCpu), ms(compileMs), ms95(compileMs), 'p95 < 50 ms'],
  ];
  const merges: (string | number)[][] = [
    ['per recipient (subject, preview, HTML, text)', 'messages/s of CPU', 'messages/s of wall time'],
    ['liquidjs, parsed once, bound to the send', round(merged.cpu), round(merged.wall)],
    ['bare string replace of the same tags', round(floor.cpu), round(floor.wall)],
    ['ratio', (merged.cpu / floor.cpu).toFixed(2), (merged.wall / floor.wall).toFixed(2)],
    ['liquidjs, parsed once, not bound', round(unbound.cpu), round(unbound.wall)],
  ];
  return [
    `Newsletter starter: ${design.mjml.length.toLocaleString('en-US')} characters of MJML, ` +
      `${compiled.html.length.toLocaleString('en-US')} of HTML, ${tags.size} distinct merge tags; ${COMPILES} compiles`,
    table(rows),
    `prepare (parse once): ${prepareMs.toFixed(1)} ms`,
    `${RECIPIENTS.toLocaleString('en-US')} recipients each, one core (goal >= 20,000 merges/s)`,
    table(merges),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await templatesBench());
