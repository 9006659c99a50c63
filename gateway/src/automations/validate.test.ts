// The journey validation rule as a table, and the exact integer expressions of event conditions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AUTOMATION_MESSAGES as M,
  argsMatch,
  parseIntegerExpression,
  type JourneyEdge,
  type JourneyGraph,
  type JourneyNode,
} from '../contracts';
import { validateJourney, type JourneyContext } from './validate';

const at = { x: 0, y: 0 };
const ctx: JourneyContext = {
  templates: new Set(['tpl']),
  lists: new Set(['list']),
  segments: new Set(['seg']),
  widgets: new Set(['w']),
  attributes: new Map([
    ['birthday', { name: 'Birthday', type: 'date' as const }],
    ['tier', { name: 'Tier', type: 'text' as const }],
  ]),
  contracts: new Map([['c1', new Map([['Transfer', ['from', 'to', 'value']]])]]),
  segmentContracts: [
    { id: 'c1', name: 'Token', events: ['Transfer(address,address,uint256)'], token: { symbol: 'TKN', decimals: 18 } },
  ],
};

const trigger = (data: Extract<JourneyNode, { type: 'trigger' }>['data'] = { type: 'api_call' }): JourneyNode => ({
  id: 't',
  type: 'trigger',
  position: at,
  data,
});
const send = (id: string, template_id = 'tpl'): JourneyNode => ({
  id,
  type: 'send_email',
  position: at,
  data: { template_id },
});
const exit = (id: string): JourneyNode => ({ id, type: 'exit', position: at, data: {} });
const wait = (id: string): JourneyNode => ({ id, type: 'wait', position: at, data: { wait: 'duration', seconds: 5 } });
const edge = (source: string, target: string, sourceHandle?: 'yes' | 'no'): JourneyEdge => ({
  id: `${source}-${target}-${sourceHandle ?? ''}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});
const contactCondition = (id: string, field = 'attr.tier'): JourneyNode => ({
  id,
  type: 'condition',
  position: at,
  data: { on: 'contact', rule: { combinator: 'and', rules: [{ field, operator: '=', value: 'gold' }] } },
});

const ok: JourneyGraph = {
  nodes: [trigger(), wait('w'), contactCondition('c'), send('s'), exit('x'), exit('y')],
  edges: [edge('t', 'w'), edge('w', 'c'), edge('c', 's', 'yes'), edge('c', 'y', 'no'), edge('s', 'x')],
};

const rows: [string, JourneyGraph, [string | null, string][]][] = [
  ['a valid journey', ok, []],
  ['no trigger', { nodes: [exit('x')], edges: [] }, [[null, M.noTrigger]]],
  [
    'an unconnected step',
    { nodes: [...ok.nodes, send('lost')], edges: [...ok.edges, edge('lost', 'x')] },
    [['lost', M.unconnected]],
  ],
  [
    'a step without its next one',
    { nodes: ok.nodes, edges: ok.edges.filter((e) => e.source !== 's') },
    [
      ['s', M.needsNext],
      ['x', M.unconnected],
    ],
  ],
  [
    'a condition missing its no branch',
    { nodes: ok.nodes, edges: ok.edges.filter((e) => e.sourceHandle !== 'no') },
    [
      ['c', M.needsBranches],
      ['y', M.unconnected],
    ],
  ],
  [
    'a cycle',
    { nodes: ok.nodes, edges: [...ok.edges.filter((e) => e.source !== 's'), edge('s', 'w')] },
    [
      ['s', M.cycle],
      ['x', M.unconnected],
    ],
  ],
  [
    'a missing template',
    { nodes: ok.nodes.map((n) => (n.id === 's' ? send('s', '') : n)), edges: ok.edges },
    [['s', M.noTemplate]],
  ],
  [
    'a template that does not exist',
    { nodes: ok.nodes.map((n) => (n.id === 's' ? send('s', 'gone') : n)), edges: ok.edges },
    [['s', M.unknownTemplate]],
  ],
  [
    'a condition on a field that does not exist',
    { nodes: ok.nodes.map((n) => (n.id === 'c' ? contactCondition('c', 'attr.shoe_size') : n)), edges: ok.edges },
    [['c', M.unknownField.replace('{field}', 'attr.shoe_size')]],
  ],
  [
    "a condition on a watched token's balance",
    { nodes: ok.nodes.map((n) => (n.id === 'c' ? contactCondition('c', 'chain.balance.c1') : n)), edges: ok.edges },
    [],
  ],
  [
    'a condition on the balance of a contract that is not watched',
    { nodes: ok.nodes.map((n) => (n.id === 'c' ? contactCondition('c', 'chain.balance.c9') : n)), edges: ok.edges },
    [['c', M.unknownField.replace('{field}', 'chain.balance.c9')]],
  ],
  [
    'a trigger on a contract that is not watched',
    {
      nodes: [
        trigger({ type: 'contract_event', contract_id: 'c9', event: 'Transfer', wallet_arg: null, conditions: [] }),
        exit('x'),
      ],
      edges: [edge('t', 'x')],
    },
    [['t', M.unwatchedContract]],
  ],
  [
    'an event condition on an argument the event does not have, and a float',
    {
      nodes: [
        trigger({
          type: 'contract_event',
          contract_id: 'c1',
          event: 'Transfer',
          wallet_arg: 'to',
          conditions: [
            { arg: 'amount', operator: '>=', value: '1' },
            { arg: 'value', operator: '>=', value: '1.5e18' },
          ],
        }),
        exit('x'),
      ],
      edges: [edge('t', 'x')],
    },
    [
      ['t', M.unknownArgument.replace('{arg}', 'amount')],
      ['t', M.badExpression],
    ],
  ],
  [
    'a condition on the event without a contract trigger',
    {
      nodes: [
        trigger(),
        {
          id: 'c',
          type: 'condition',
          position: at,
          data: { on: 'event', conditions: [{ arg: 'value', operator: '>', value: '1' }] },
        },
        exit('x'),
        exit('y'),
      ],
      edges: [edge('t', 'c'), edge('c', 'x', 'yes'), edge('c', 'y', 'no')],
    },
    [['c', M.eventConditionWithoutEvent]],
  ],
  [
    'a value that does not fit the attribute',
    {
      nodes: [
        trigger(),
        {
          id: 'u',
          type: 'update_contact',
          position: at,
          data: { action: 'set_attribute', attribute: 'birthday', value: 7 },
        },
        exit('x'),
      ],
      edges: [edge('t', 'u'), edge('u', 'x')],
    },
    [['u', M.valueType]],
  ],
  [
    'a date trigger on a text attribute',
    {
      nodes: [trigger({ type: 'date_attribute', attribute: 'tier', offset_days: 0, time: '09:00' }), exit('x')],
      edges: [edge('t', 'x')],
    },
    [['t', M.notDateAttribute]],
  ],
];

describe('validateJourney', () => {
  for (const [name, graph, expected] of rows) {
    it(name, () => {
      assert.deepEqual(
        validateJourney(graph, ctx).map((p) => [p.node_id, p.message]),
        expected,
      );
    });
  }
});

describe('integer expressions', () => {
  const cases: [string, bigint | null][] = [
    ['1000 * 10^18', 1000n * 10n ** 18n],
    ['2^3^2', 512n],
    ['(1 + 2) * 3 - 4', 5n],
    ['115792089237316195423570985008687907853269984665640564039457584007913129639935', 2n ** 256n - 1n],
    ['1.5', null],
    ['5e18', null],
    ['10^-1', null],
    ['10^1000', null],
    ['', null],
    ['1 +', null],
  ];
  for (const [source, value] of cases)
    it(source || '(empty)', () => assert.equal(parseIntegerExpression(source), value));

  it('compares uint256 arguments exactly, past what a float holds', () => {
    const big = (10n ** 21n + 1n).toString();
    assert.equal(argsMatch({ value: big }, [{ arg: 'value', operator: '>', value: '1000 * 10^18' }]), true);
    assert.equal(argsMatch({ value: big }, [{ arg: 'value', operator: '=', value: '1000 * 10^18' }]), false);
    assert.equal(argsMatch({ to: '0xAbC' }, [{ arg: 'to', operator: '=', value: '0xabc' }]), true);
    assert.equal(argsMatch({}, [{ arg: 'value', operator: '>', value: '0' }]), false);
  });
});
