/**
 * Query parameters with good and hostile values on list, watch, get, delete, deletecollection,
 * create and update; malformed label and field selectors; Accept headers asking for Table and
 * PartialObjectMetadata. A value upstream cannot parse is a 4xx; a value it parses but finds
 * odd is whatever upstream does (never a 5xx). A resourceVersion the server has not reached
 * waits and answers 504: that deadline is the point there.
 */
import { configMap, JSON_TYPE, MERGE_TYPE } from './bodies.js';
import type { Family, HostileCase, LaneContext } from './hostile-case.js';
import type { Rng } from './prng.js';
import { BAD_NUMBERS, EDGE_NUMBERS, PROTOTYPE_NAMES } from './values.js';
import { freshName } from './writes.js';

interface Param {
  name: string;
  good: readonly string[];
  bad: readonly string[];
}

const enc = encodeURIComponent;

/** Label selectors upstream's parser refuses (400). */
export const BAD_LABEL_SELECTORS: readonly string[] = [
  'a=b=c',
  '!',
  'a in (',
  'a notin b',
  '==',
  'a=b,',
  '(',
  `x=${'y'.repeat(64)}`,
  '__proto__',
  'a,,b',
  '=x',
  'a b',
  'a=(b)',
  `${'k'.repeat(64)}=v`,
];
export const GOOD_LABEL_SELECTORS: readonly string[] = [
  // Upstream's parser reads an empty value list and an empty != value as the empty string.
  'a!=',
  'a in ()',
  'app=hostile',
  'app',
  '!app',
  'app in (a,hostile)',
  'app notin (x)',
  'constructor=x',
  'toString',
  '!hasOwnProperty',
  'app==hostile',
  'app!=x',
  '',
];
export const BAD_FIELD_SELECTORS: readonly string[] = [
  'a',
  '=x',
  'metadata.__proto__=x',
  'metadata.constructor=x',
  'metadata.name',
  'metadata.name=a,b',
  'x.y.z=1',
  'metadata.name=\\',
  'metadata.labels=x',
];
export const GOOD_FIELD_SELECTORS: readonly string[] = ['metadata.name=cm', 'metadata.name!=cm', 'metadata.name==x', ''];

/** Field selectors only some collections support (400 elsewhere). */
function fieldSelectors(collection: string, ctx: LaneContext): Param {
  const pod = ['status.phase=Running', 'spec.nodeName=x', 'spec.nodeName='];
  const namespaced = ['metadata.namespace=x'];
  const good = [...GOOD_FIELD_SELECTORS];
  const bad = [...BAD_FIELD_SELECTORS];
  if (collection === ctx.pods) {
    good.push(...pod, ...namespaced);
  } else if (collection === '/api/v1/namespaces') {
    // Namespaces select on status.phase too, and have no namespace.
    good.push(pod[0]);
    bad.push(...pod.slice(1), ...namespaced);
  } else {
    good.push(...namespaced);
    bad.push(...pod);
  }
  return { name: 'fieldSelector', good, bad };
}

const LIST_PARAMS: readonly Param[] = [
  { name: 'limit', good: ['1', '2', '500', ...EDGE_NUMBERS], bad: BAD_NUMBERS },
  { name: 'continue', good: [''], bad: ['garbage', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJ4In0', '%00', 'eyJ2IjoiIn0'] },
  { name: 'resourceVersion', good: ['', '0', '1'], bad: ['abc', '-1', '1.5', '99999999999999999999999'] },
  { name: 'timeoutSeconds', good: ['1', '0', '-1', '9223372036854775807'], bad: BAD_NUMBERS },
  { name: 'timeout', good: ['30s', '1h', '0s', '1m30s'], bad: ['foo', '1x', '1', '--1s', '1e3s'] },
  { name: 'allowWatchBookmarks', good: ['true', 'false', '1', 'abc', ''], bad: [] },
  { name: 'pretty', good: ['true', 'false', '1', 'abc', ''], bad: [] },
  { name: 'labelSelector', good: GOOD_LABEL_SELECTORS, bad: BAD_LABEL_SELECTORS },
];

const DELETE_PARAMS: readonly Param[] = [
  { name: 'gracePeriodSeconds', good: ['0', '30', '-1', '9223372036854775807'], bad: BAD_NUMBERS },
  { name: 'propagationPolicy', good: ['Orphan', 'Background', 'Foreground', ''], bad: ['bogus', 'orphan', '__proto__'] },
  { name: 'dryRun', good: ['All', ''], bad: ['all', 'None', 'constructor'] },
  { name: 'orphanDependents', good: ['true', 'false', 'abc'], bad: [] },
  { name: 'pretty', good: ['true', 'x'], bad: [] },
];

const WRITE_PARAMS: readonly Param[] = [
  { name: 'dryRun', good: ['All', ''], bad: ['all', 'None', 'constructor'] },
  { name: 'fieldManager', good: ['hostile', 'a'.repeat(128), ...PROTOTYPE_NAMES.slice(0, 4), '名前'], bad: ['a'.repeat(129), 'a\u0001b', '\u007f'] },
  { name: 'fieldValidation', good: ['Strict', 'Warn', 'Ignore', '', 'strict'], bad: ['bogus', '__proto__'] },
  { name: 'pretty', good: ['true', 'x'], bad: [] },
];

/** Picks 1-4 parameters, some repeated or empty; says whether any value is one upstream refuses. */
function pickParams(rng: Rng, table: readonly Param[]): { query: string; bad: boolean; names: string[]; badName?: string } {
  const parts: string[] = [];
  const names: string[] = [];
  let bad = false;
  let badName: string | undefined;
  const n = rng.int(1, 4);
  for (let i = 0; i < n; i++) {
    const p = rng.pick(table);
    // A bare name (`?limit`) is an empty value, which upstream reads as unset.
    const bare = rng.chance(0.05);
    const useBad = !bare && p.bad.length > 0 && rng.chance(0.4);
    const value = useBad ? rng.pick(p.bad) : rng.pick(p.good);
    // A repeated parameter: upstream reads the first value, so only the first one decides.
    if (!names.includes(p.name) && useBad) {
      bad = true;
      badName ??= p.name;
    }
    names.push(p.name);
    parts.push(bare ? enc(p.name) : `${p.name}=${enc(value)}`);
  }
  return { query: parts.join('&'), bad, names, badName };
}

/** Accept headers and whether upstream serves them (undefined: either answer is fine). */
const ACCEPTS: readonly [string, boolean | undefined][] = [
  ['application/json', true],
  ['application/yaml', true],
  ['application/vnd.orch.protobuf', true],
  ['application/json;as=Table;v=v1;g=meta.orch.io', true],
  ['application/json;as=Table;v=v1beta1;g=meta.orch.io', undefined],
  ['application/json;as=PartialObjectMetadata;v=v1;g=meta.orch.io', undefined],
  ['application/json;as=PartialObjectMetadataList;v=v1;g=meta.orch.io', undefined],
  ['application/vnd.orch.protobuf;as=Table;v=v1;g=meta.orch.io, application/json', true],
  ['application/json;as=Table;v=v9;g=meta.orch.io', false],
  ['application/json;as=Bogus;v=v1;g=meta.orch.io', false],
  ['application/json;as=__proto__;v=v1;g=meta.orch.io', false],
  ['text/html', false],
  [';;;,,,', undefined],
  ['*/*;q=0', undefined],
];

export const params: Family = {
  name: 'params',
  owner: 'request parameters, selectors and negotiation',
  weight: 20,
  generate(rng: Rng, ctx: LaneContext): HostileCase {
    const family = 'params';
    const verb = rng.pick(['list', 'list', 'list', 'watch', 'get', 'delete', 'deletecollection', 'create', 'update', 'future-rv'] as const);
    if (verb === 'future-rv') {
      // A resourceVersion far ahead: upstream waits ~3 s for it, then 504 Timeout.
      return {
        family,
        variant: 'list at a future resourceVersion',
        method: 'GET',
        path: `${ctx.cms}?resourceVersion=99999999999&resourceVersionMatch=NotOlderThan`,
        expect: 'any',
        allow504: true,
      };
    }
    const [accept, acceptable] = rng.pick(ACCEPTS);
    const headers = { accept };
    if (verb === 'list' || verb === 'watch') {
      const collection = rng.pick([ctx.cms, ctx.pods, ctx.deploys, '/api/v1/configmaps', '/api/v1/namespaces']);
      // Watches are long-running: upstream never reads their `timeout` (only timeoutSeconds).
      const table = verb === 'watch' ? LIST_PARAMS.map((p) => (p.name === 'timeout' ? { ...p, good: [...p.good, ...p.bad], bad: [] } : p)) : LIST_PARAMS;
      const p = pickParams(rng, [...table, fieldSelectors(collection, ctx)]);
      let query = p.query;
      let bad = p.bad;
      const match = rng.pick([undefined, undefined, 'Exact', 'NotOlderThan', 'bogus']);
      if (match) {
        query += `&resourceVersionMatch=${match}`;
        const rv = /(?:^|&)resourceVersion=([^&]*)/.exec(query)?.[1] ?? '';
        // Upstream: a match needs a resourceVersion, Exact not 0, and watches take none (422).
        if (match === 'bogus' || rv === '' || (match === 'Exact' && rv === '0') || verb === 'watch') bad = true;
      }
      if (verb === 'watch') query += `&${rng.pick(['watch=true', 'watch=1', 'watch=abc', 'watch'])}`;
      return {
        family,
        variant: `${verb} ${p.badName ? `bad ${p.badName}` : 'good params'}${match ? ` rvMatch=${match}` : ''}${acceptable === true ? '' : ` accept ${accept}`}`,
        method: 'GET',
        path: `${collection}?${query}`,
        headers,
        expect: bad || acceptable === false ? 'refuse' : 'any',
        allow504: /timeout=|resourceVersion=1(&|$)/.test(query),
        watch: verb === 'watch',
      };
    }
    if (verb === 'get') {
      const target = rng.pick([
        ctx.cm,
        ctx.pod,
        ctx.deploy,
        ctx.nsObj,
        `${ctx.pod}/status`,
        `${ctx.deploy}/status`,
        `${ctx.deploy}/scale`,
        `${ctx.nsObj}/status`,
      ]);
      const query = rng.pick([
        '',
        'pretty=true',
        'resourceVersion=0',
        'resourceVersion=abc',
        'resourceVersion=99999999999999999999',
        'export=true',
        'limit=abc',
        'watch=false',
      ]);
      return {
        family,
        variant: `get ${query || 'plain'}${acceptable === true ? '' : ` accept ${accept}`}`,
        method: 'GET',
        path: query ? `${target}?${query}` : target,
        headers,
        expect: acceptable === false ? 'refuse' : 'any',
      };
    }
    if (verb === 'delete' || verb === 'deletecollection') {
      const p = pickParams(rng, DELETE_PARAMS);
      if (verb === 'delete') {
        const target = rng.pick([ctx.cm, ctx.pod]);
        return {
          family,
          variant: `delete ${p.badName ? `bad ${p.badName}` : 'good params'}`,
          method: 'DELETE',
          path: `${target}?${p.query}`,
          headers: { accept: 'application/json' },
          expect: p.bad ? 'refuse' : 'any',
          target,
        };
      }
      const sel = rng.chance(0.5) ? rng.pick(BAD_LABEL_SELECTORS) : rng.pick(GOOD_LABEL_SELECTORS);
      const badSel = BAD_LABEL_SELECTORS.includes(sel);
      return {
        family,
        variant: `deletecollection ${p.badName ? `bad ${p.badName}` : 'good params'}${badSel ? ' bad selector' : ''}`,
        method: 'DELETE',
        path: `${ctx.cms}?${p.query}&labelSelector=${enc(sel)}`,
        headers: { accept: 'application/json' },
        expect: p.bad || badSel ? 'refuse' : 'any',
        collection: ctx.cms,
      };
    }
    const p = pickParams(rng, WRITE_PARAMS);
    if (verb === 'create') {
      const name = freshName(rng);
      return {
        family,
        variant: `create ${p.badName ? `bad ${p.badName}` : 'good params'}`,
        method: 'POST',
        path: `${ctx.cms}?${p.query}`,
        headers: { 'content-type': JSON_TYPE },
        body: JSON.stringify(configMap(name, ctx.ns)),
        expect: p.bad ? 'refuse' : 'any',
        creates: `${ctx.cms}/${name}`,
      };
    }
    return {
      family,
      variant: `update ${p.badName ? `bad ${p.badName}` : 'good params'}`,
      method: 'PATCH',
      path: `${ctx.cm}?${p.query}`,
      headers: { 'content-type': MERGE_TYPE },
      body: '{"data":{"p":"1"}}',
      expect: p.bad ? 'refuse' : 'any',
      target: ctx.cm,
    };
  },
};
