/** Volume limit keys and the limits a node advertises, shared by the CSI and in-tree limit filters. */
import { createHash } from 'node:crypto';
import type { NodeInfo } from '../../framework/node-info.js';
import type { CSINode } from '../../framework/types.js';

export const ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED = 'node(s) exceed max volume count';

const ATTACHABLE_PREFIX = 'attachable-volumes-';
const CSI_ATTACH_LIMIT_PREFIX = 'attachable-volumes-csi-';
/** Resource names are qualified names: at most 63 characters. */
const RESOURCE_NAME_LENGTH_LIMIT = 63;

/** volumeutil.GetCSIAttachLimitKey: long driver names are cut and suffixed with a hash so keys stay unique. */
export function csiAttachLimitKey(driverName: string): string {
  if (CSI_ATTACH_LIMIT_PREFIX.length + driverName.length < RESOURCE_NAME_LENGTH_LIMIT) return CSI_ATTACH_LIMIT_PREFIX + driverName;
  const hashed = createHash('sha1').update(driverName).digest('hex').slice(0, 16);
  return CSI_ATTACH_LIMIT_PREFIX + driverName.slice(0, 23) + hashed;
}

/** The node's `attachable-volumes-*` allocatable amounts. */
export function nodeVolumeLimits(nodeInfo: NodeInfo): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of nodeInfo.allocatable.scalar ?? []) if (k.startsWith(ATTACHABLE_PREFIX)) out.set(k, v);
  return out;
}

/** Node allocatable limits overlaid with the CSINode drivers' allocatable counts (upstream's getVolumeLimits). */
export function csiVolumeLimits(nodeInfo: NodeInfo, csiNode: CSINode | undefined): Map<string, number> {
  const limits = nodeVolumeLimits(nodeInfo);
  for (const d of csiNode?.spec.drivers ?? []) {
    const count = d.allocatable?.count;
    if (count !== undefined && count !== null) limits.set(csiAttachLimitKey(d.name), count);
  }
  return limits;
}

/** A prefix unlike any real volume ID, so "namespace/claim" stand-ins never collide with one. */
export function randomVolumeIDPrefix(): string {
  const abc = 'bcdfghjklmnpqrstvwxz2456789';
  let s = '';
  for (let i = 0; i < 32; i++) s += abc[Math.floor(Math.random() * abc.length)];
  return s;
}
