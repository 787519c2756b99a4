/**
 * ImageLocality (Score): favours nodes that already have the pod's container images, weighing
 * each image's size by the share of nodes that have it so that widely spread images (cheap to
 * get anywhere) do not pull every pod onto the same nodes.
 */
import { normalizedImageName } from '../../cache/cache.js';
import type { CycleState } from '../../framework/cycle-state.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import { MAX_NODE_SCORE, type ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import type { Pod } from '../../framework/types.js';

export const NAME = 'ImageLocality';

const MB = 1024 * 1024;
/** Below this sum the score is 0; about the size of a small compressed image. */
export const MIN_THRESHOLD = 23 * MB;
/** Per container: the sum is capped at this times the number of containers. */
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;

// Normalized image names per pod object: pods are immutable, so once per pod, not per node.
const imageNamesOf = new WeakMap<Pod, string[]>();

function podImages(pod: Pod): string[] {
  let names = imageNamesOf.get(pod);
  if (names === undefined) {
    names = (pod.spec.containers ?? []).map((c) => normalizedImageName(c.image ?? ''));
    imageNamesOf.set(pod, names);
  }
  return names;
}

/** Upstream's calculatePriority: the clamped sum scaled linearly to 0–100. */
export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  let s = sumScores;
  if (s < MIN_THRESHOLD) s = MIN_THRESHOLD;
  else if (s > maxThreshold) s = maxThreshold;
  return Math.trunc((MAX_NODE_SCORE * (s - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

/** Upstream's sumImageScores with scaledImageScore: size × numNodes / totalNumNodes per present image. */
export function sumImageScores(nodeInfo: NodeInfo, images: readonly string[], totalNumNodes: number): number {
  let sum = 0;
  for (const name of images) {
    const st = nodeInfo.imageStates.get(name);
    if (st !== undefined) sum += Math.trunc(st.size * (st.numNodes / totalNumNodes));
  }
  return sum;
}

export class ImageLocality implements ScorePlugin {
  readonly name = NAME;

  constructor(private readonly handle: FrameworkHandle) {}

  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const images = podImages(pod);
    // A pod without containers cannot be scored (upstream divides by zero range); give 0.
    if (images.length === 0 || nodeInfo.imageStates.size === 0) return 0;
    const total = this.handle.snapshotSharedLister().numNodes();
    return calculatePriority(sumImageScores(nodeInfo, images, total), images.length);
  }
}

export const factory: PluginFactory = (_args, handle) => new ImageLocality(handle);
