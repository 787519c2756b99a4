/**
 * The behavior round-trip annotation of autoscaling/v1. Upstream marshals its *internal*
 * HorizontalPodAutoscalerBehavior, whose fields carry no JSON tags, so the annotation spells
 * Go's field names (`{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max",...}}`)
 * and nil pointers as null; reading it back, encoding/json matches keys case-insensitively.
 */
import { type Rec, isSet, rec, recOrNil, records } from '../../machinery/fields.js';
import { goStructMarshal } from '../../machinery/go-json.js';

function rulesToGo(rules: Rec | undefined): Rec | null {
  if (rules === undefined) return null;
  const policies = Array.isArray(rules.policies)
    ? records(rules.policies).map((p) => ({ Type: p.type ?? '', Value: p.value ?? 0, PeriodSeconds: p.periodSeconds ?? 0 }))
    : null;
  return { StabilizationWindowSeconds: rules.stabilizationWindowSeconds ?? null, SelectPolicy: rules.selectPolicy ?? null, Policies: policies };
}

/** The annotation text of a v2 behavior. */
export function behaviorToAnnotation(behavior: Rec): string {
  return goStructMarshal({ ScaleUp: rulesToGo(recOrNil(behavior.scaleUp)), ScaleDown: rulesToGo(recOrNil(behavior.scaleDown)) });
}

/** A key of a decoded Go struct, matched as encoding/json does (exact, then case-insensitive). */
function field(o: Rec, name: string): unknown {
  if (Object.hasOwn(o, name)) return o[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) return o[k];
  return undefined;
}

function rulesFromGo(v: unknown): Rec | undefined {
  const o = recOrNil(v);
  if (o === undefined) return undefined;
  const out: Rec = {};
  const window = field(o, 'StabilizationWindowSeconds');
  if (isSet(window)) out.stabilizationWindowSeconds = window;
  const select = field(o, 'SelectPolicy');
  if (isSet(select)) out.selectPolicy = select;
  const policies = field(o, 'Policies');
  if (Array.isArray(policies)) {
    out.policies = policies.map((p) => {
      const r = rec(p);
      return { type: field(r, 'Type') ?? '', value: field(r, 'Value') ?? 0, periodSeconds: field(r, 'PeriodSeconds') ?? 0 };
    });
  }
  return out;
}

/** The v2 behavior an annotation holds; undefined when absent, unreadable or empty (both directions nil). */
export function behaviorFromAnnotation(text: unknown): Rec | undefined {
  if (typeof text !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const o = recOrNil(parsed);
  if (o === undefined) return undefined;
  const scaleUp = rulesFromGo(field(o, 'ScaleUp'));
  const scaleDown = rulesFromGo(field(o, 'ScaleDown'));
  if (scaleUp === undefined && scaleDown === undefined) return undefined;
  const out: Rec = {};
  if (scaleUp !== undefined) out.scaleUp = scaleUp;
  if (scaleDown !== undefined) out.scaleDown = scaleDown;
  return out;
}
