// A tenant's hostile template against the render limits and the gateway's loop: past the step limit a
// preview fails with the reason, the same every time; just under it, previews render in the off-loop
// pool while /health keeps answering at once (compared with one render of it on this thread, measured
// in the same run).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Template } from '../contracts';
import { call } from '../../test/audience-helpers';
import { startGateway, type TestGateway } from '../../test/helpers';
import { TEMPLATE_MJML } from '../../test/campaign-send-helpers';
import { offLoop, OffLoopRetry } from '../lib/off-loop/pool';
import { compileHere } from './render/compile';
import { renderTask, sourcesKey } from './render/render-task';
import { TOO_MANY_STEPS } from './render/liquid';
import { prepareTemplate, renderMessage } from './render/prepared';
import { sampleLinks, sampleScope } from './merge-tags';

let gw: TestGateway;
let owner: string;

/** Nested loops of `outer` × `inner` turns, each writing the contact's name through a few filters. */
const loops = (outer: number, inner: number) =>
  `{% for i in (1..${outer}) %}{% for j in (1..${inner}) %}{{ contact.first_name | upcase | append: "!" | prepend: j | replace: "A", "a" | truncate: 12 }}{% endfor %}{% endfor %}`;

/** Nested loops in three fields (the MJML's also reaches the text part). */
function hostile(outer: number, inner: number) {
  return {
    subject: `Hi ${loops(outer, inner)}`,
    preview_text: loops(outer, inner),
    mjml: TEMPLATE_MJML.replace('</mj-text>', `${loops(outer, inner)}</mj-text>`),
  };
}

async function saveTemplate(content: ReturnType<typeof hostile>): Promise<string> {
  const created = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: `Hostile ${Math.random()}` });
  assert.equal(created.status, 201, created.text);
  const saved = await call(gw, 'PATCH', `/v1/templates/${created.body._id}`, owner, content);
  assert.equal(saved.status, 200, saved.text);
  return created.body._id;
}

before(async () => {
  gw = await startGateway();
  owner = await gw.login('acmeOwner');
});
after(async () => {
  await gw?.close();
});

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/**
 * Runs `work` in `clients` loops for 3 s while /health is asked every 20 ms: /health's answer times, and
 * how many times the work ran.
 */
async function healthWhile(clients: number, work: () => Promise<void>): Promise<{ health: number[]; turns: number }> {
  let turns = 0;
  let stop = false;
  const loop = async () => {
    while (!stop) {
      await work();
      turns++;
    }
  };
  const loopsDone = Promise.all(Array.from({ length: clients }, loop));
  const health: number[] = [];
  const end = Date.now() + 3_000;
  while (Date.now() < end) {
    const t = performance.now();
    const res = await fetch(`${gw.url}/health`);
    await res.arrayBuffer();
    health.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  stop = true;
  await loopsDone;
  return { health, turns };
}

describe('a hostile template', () => {
  it('past the step limit: the preview fails with the reason, the same every time', async () => {
    const id = await saveTemplate(hostile(100, 1000));
    for (let i = 0; i < 3; i++) {
      const preview = await call<{ errors: Record<string, string[]> }>(
        gw,
        'POST',
        `/v1/templates/${id}/preview`,
        owner,
        {},
      );
      assert.equal(preview.status, 400, preview.text);
      assert.deepEqual(preview.body.errors, { mjml: [`The merge tags could not be filled in: ${TOO_MANY_STEPS}`] });
    }
  });

  it('just under the limits: previews in a loop do not hold /health', async () => {
    const content = hostile(30, 50);
    // One render on this thread: what a preview held the gateway's loop for when it rendered there.
    const compiled = await compileHere(content, { publicUrl: gw.config.onboarding.publicUrl });
    const prepared = prepareTemplate(content, compiled);
    const scope = sampleScope([], { name: 'Acme DAO', url: '', postal_address: null }, sampleLinks(''));
    renderMessage(prepared, scope);
    const started = performance.now();
    renderMessage(prepared, scope);
    const renderMs = performance.now() - started;

    const id = await saveTemplate(content);
    const { health, turns } = await healthWhile(3, async () => {
      const preview = await call(gw, 'POST', `/v1/templates/${id}/preview`, owner, {});
      assert.equal(preview.status, 200, preview.text);
    });
    assert.ok(turns >= 3, `previews ran meanwhile (${turns})`);
    // On the loop, /health waited for the renders in progress: its median was several renders.
    const [p50, p90] = [percentile(health, 50), percentile(health, 90)];
    const figures = `/health p50 ${p50.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms; one render on the loop ${renderMs.toFixed(1)} ms`;
    assert.ok(p50 < renderMs / 2, figures);
  });

  it("a large design's MJML compiles off the loop: saves in a loop do not hold /health", async () => {
    // About 600 KB of MJML (the limit is 1 MB): each compile is MJML's parse, validation and render.
    const sections = Array.from(
      { length: 1_500 },
      (_, i) =>
        `<mj-section><mj-column><mj-text>Paragraph ${i} for {{ contact.first_name }}</mj-text></mj-column></mj-section>`,
    ).join('');
    const content = {
      subject: 'Big',
      preview_text: '',
      mjml: TEMPLATE_MJML.replace('</mj-body>', `${sections}</mj-body>`),
    };
    assert.ok(content.mjml.length > 150_000, 'the design is large');
    const settings = { publicUrl: gw.config.onboarding.publicUrl };
    await compileHere(content, settings);
    const started = performance.now();
    await compileHere(content, settings);
    const compileMs = performance.now() - started;

    const created = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: 'Large design' });
    assert.equal(created.status, 201, created.text);
    const { health, turns } = await healthWhile(2, async () => {
      const saved = await call(gw, 'PATCH', `/v1/templates/${created.body._id}`, owner, content);
      assert.equal(saved.status, 200, saved.text);
    });
    assert.ok(turns >= 2, `saves ran meanwhile (${turns})`);
    const [p50, p90] = [percentile(health, 50), percentile(health, 90)];
    const figures = `/health p50 ${p50.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms; one compile on the loop ${compileMs.toFixed(1)} ms`;
    // On the loop, a /health asked while a compile ran waited for it: one in ten waited whole compiles.
    assert.ok(p90 < compileMs / 2, figures);
  });

  it("past the pool's guard: the render is stopped, its thread replaced, and the next render answers", async () => {
    const heavy = { subject: '', previewText: '', html: loops(30, 50).repeat(4), text: '' };
    const light = { subject: 'Hi {{ contact.first_name }}', previewText: '', html: '', text: '' };
    const scope = sampleScope([], { name: 'Acme DAO', url: '', postal_address: null }, sampleLinks(''));
    const run = (sources: typeof light, guardMs?: number) =>
      offLoop().run(renderTask, { key: sourcesKey(sources), sources, scope }, guardMs ? { guardMs } : {});
    assert.ok((await run(light)).ok, 'a thread is up');
    await assert.rejects(
      run(heavy, 20),
      (error: unknown) => error instanceof OffLoopRetry && error.reason === 'timeout',
    );
    const after = await run(light);
    assert.deepEqual(after.ok && after.value.subject, 'Hi Ada');
  });
});
