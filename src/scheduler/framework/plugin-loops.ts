/**
 * Plugin loops compiled per profile so each plugin gets its own call site: through one shared
 * `pl.filter()` / `pl.score()` site V8 dispatches megamorphically and inlines nothing, which
 * cost more than most plugins' work (filter: ~690 → ~300 ns per node with the default plugins).
 */
import type { CycleState } from './cycle-state.js';
import type { FilterPlugin, NodeScore, ScorePlugin } from './interfaces.js';
import type { NodeInfo } from './node-info.js';
import { errorStatus, SUCCESS, type Status } from './status.js';
import type { Pod } from './types.js';

/** `skip[i]` 1: the i-th plugin's PreFilter returned Skip (undefined: none did). */
export type FilterRunner = (state: CycleState, pod: Pod, nodeInfo: NodeInfo, skip: Uint8Array | undefined) => Status;

/**
 * The filter loop unrolled, one `pN.filter()` call site per plugin. Filter runs nodes × plugins
 * times per cycle; through one shared call site V8 dispatches megamorphically and inlines
 * nothing, which cost more than most filters themselves. Plugins come from the registry, never
 * from input, and only their index reaches the generated source.
 */
export function compileFilterRunner(plugins: readonly FilterPlugin[], fail: (pl: FilterPlugin, s: Status) => Status): FilterRunner {
  const params = plugins.map((_, i) => `p${i}`);
  let body = 'return function runFilterPlugins(state, pod, nodeInfo, skip) {\n  let s;\n';
  for (let i = 0; i < plugins.length; i++) {
    body += `  if (skip === undefined || skip[${i}] === 0) {\n`;
    body += `    try { s = p${i}.filter(state, pod, nodeInfo); } catch (e) { return fail(p${i}, errorStatus(e)); }\n`;
    body += `    if (s.code !== 0) return fail(p${i}, s);\n  }\n`;
  }
  body += '  return SUCCESS;\n};';
  const make = new Function(...params, 'fail', 'errorStatus', 'SUCCESS', body) as (...args: unknown[]) => FilterRunner;
  return make(...plugins, fail, errorStatus, SUCCESS);
}

export type ScoreLoop = (state: CycleState, pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]) => void;

/** A score loop compiled once per plugin, so its `score()` call site stays monomorphic and inlinable. */
export function compileScoreLoop(pl: ScorePlugin): ScoreLoop {
  const make = new Function(
    'pl',
    'return function scoreAll(state, pod, nodes, scores) {\n  for (let i = 0; i < nodes.length; i++) scores[i].score = pl.score(state, pod, nodes[i]);\n};',
  );
  return make(pl) as ScoreLoop;
}
