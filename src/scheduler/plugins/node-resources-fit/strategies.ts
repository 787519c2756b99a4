/**
 * The three resource scoring strategies, integer arithmetic as upstream (Go int64 division
 * truncates toward zero): LeastAllocated favours free nodes (spreading), MostAllocated full
 * ones (bin packing), RequestedToCapacityRatio follows a user-given broken-linear shape.
 */
import { MAX_NODE_SCORE } from '../../framework/interfaces.js';
import type { ResourceScorer, ResourceSpec } from './resource-allocation.js';

/** Upstream's leastRequestedScore: (capacity − requested) × 100 / capacity; 0 when over capacity. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** Upstream's mostRequestedScore (1.21): requested × 100 / capacity; 0 when over capacity. */
export function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc((requested * MAX_NODE_SCORE) / capacity);
}

function weighted(resources: readonly ResourceSpec[], one: (req: number, cap: number) => number): ResourceScorer {
  const weights = resources.map((r) => r.weight);
  let weightSum = 0;
  for (const w of weights) weightSum += w;
  return (requested, allocatable) => {
    let score = 0;
    for (let i = 0; i < weights.length; i++) score += one(requested[i], allocatable[i]) * weights[i];
    return weightSum === 0 ? 0 : Math.trunc(score / weightSum);
  };
}

export function leastAllocatedScorer(resources: readonly ResourceSpec[]): ResourceScorer {
  return weighted(resources, leastRequestedScore);
}

export function mostAllocatedScorer(resources: readonly ResourceSpec[]): ResourceScorer {
  return weighted(resources, mostRequestedScore);
}

/** A shape point as configured: utilization 0–100, score 0–10. */
export interface UtilizationShapePoint {
  utilization: number;
  score: number;
}

/** Upstream's MaxCustomPriorityScore: configured shape scores run 0–10 and are scaled to 0–100. */
export const MAX_CUSTOM_PRIORITY_SCORE = 10;

/** Validates a shape as upstream: non-empty, utilization strictly increasing in 0–100, score in 0–10. */
export function validateShape(shape: readonly UtilizationShapePoint[]): void {
  if (shape.length === 0) throw new Error('shape: Required value: at least one point must be specified');
  for (let i = 0; i < shape.length; i++) {
    const { utilization: u, score: s } = shape[i];
    if (!(u >= 0 && u <= 100)) throw new Error(`shape[${i}].utilization: Invalid value: ${u}: not in valid range [0, 100]`);
    if (i > 0 && u <= shape[i - 1].utilization) throw new Error(`shape[${i}].utilization: Invalid value: ${u}: values must be sorted in increasing order`);
    if (!(s >= 0 && s <= MAX_CUSTOM_PRIORITY_SCORE)) throw new Error(`shape[${i}].score: Invalid value: ${s}: not in valid range [0, 10]`);
  }
}

/** Upstream's BuildBrokenLinearFunction over points already scaled to 0–100 scores. */
export function brokenLinear(shape: readonly UtilizationShapePoint[]): (p: number) => number {
  return (p) => {
    for (let i = 0; i < shape.length; i++) {
      if (p <= shape[i].utilization) {
        if (i === 0) return shape[0].score;
        const a = shape[i - 1];
        const b = shape[i];
        return a.score + Math.trunc(((b.score - a.score) * (p - a.utilization)) / (b.utilization - a.utilization));
      }
    }
    return shape[shape.length - 1].score;
  };
}

/** Upstream's buildRequestedToCapacityRatioScorerFunction; the shape's 0–10 scores are scaled ×10. */
export function requestedToCapacityRatioScorer(shape: readonly UtilizationShapePoint[], resources: readonly ResourceSpec[]): ResourceScorer {
  validateShape(shape);
  const scale = MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE;
  const fn = brokenLinear(shape.map((p) => ({ utilization: p.utilization, score: p.score * scale })));
  const maxUtilization = 100;
  const one = (requested: number, capacity: number) => {
    if (capacity === 0 || requested > capacity) return fn(maxUtilization);
    return fn(maxUtilization - Math.trunc(((capacity - requested) * maxUtilization) / capacity));
  };
  return (requested, allocatable) => {
    let score = 0;
    let weightSum = 0;
    for (let i = 0; i < resources.length; i++) {
      const s = one(requested[i], allocatable[i]);
      // Upstream counts only resources that scored above zero.
      if (s > 0) {
        score += s * resources[i].weight;
        weightSum += resources[i].weight;
      }
    }
    return weightSum === 0 ? 0 : Math.round(score / weightSum);
  };
}
