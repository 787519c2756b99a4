/**
 * The API server's feature gates (upstream's generic apiserver gates of the spec's release,
 * with the spec's levels) and the switches the request chain and handlers read: resolved once
 * at start-up into plain booleans, so no request looks a gate up by name.
 */
import { type FeatureGate, type FeatureSpecs, featureGate } from '../machinery/feature-gate.js';

/** The spec's gates: name, level, default (WatchBookmark is GA and locked on, as upstream since 1.17). */
export const API_SERVER_FEATURES: FeatureSpecs = new Map([
  ['APIListChunking', { default: true, preRelease: 'BETA' }],
  ['APIPriorityAndFairness', { default: true, preRelease: 'BETA' }],
  ['APIResponseCompression', { default: true, preRelease: 'BETA' }],
  ['DryRun', { default: true, preRelease: 'GA' }],
  ['EfficientWatchResumption', { default: true, preRelease: 'BETA' }],
  ['RemainingItemCount', { default: true, preRelease: 'BETA' }],
  ['ServerSideApply', { default: true, preRelease: 'BETA' }],
  ['StorageVersionHash', { default: true, preRelease: 'BETA' }],
  ['WarningHeaders', { default: true, preRelease: 'BETA' }],
  ['WatchBookmark', { default: true, preRelease: 'GA', lockToDefault: true }],
] as const);

/** What each gate switches, as the chain and handlers read it. */
export interface ServerFeatures {
  /** APIListChunking: `limit` and `continue` are honoured (off: ignored, the whole list is served). */
  listChunking: boolean;
  /** APIPriorityAndFairness: with --enable-priority-and-fairness, API Priority and Fairness replaces the in-flight limits. */
  priorityAndFairness: boolean;
  /** APIResponseCompression: large responses are gzipped for clients that accept it. */
  responseCompression: boolean;
  /** DryRun: `dryRun=All` is served (off: 400, as upstream). */
  dryRun: boolean;
  /** EfficientWatchResumption: the watch caches advance on the store's progress notifications (etcd), not only on events. */
  efficientWatchResumption: boolean;
  /** RemainingItemCount: chunked lists say how many items remain. */
  remainingItemCount: boolean;
  /** ServerSideApply: apply patches and managedFields. */
  serverSideApply: boolean;
  /** StorageVersionHash: discovery carries each resource's storageVersionHash. */
  storageVersionHash: boolean;
  /** WarningHeaders: `Warning` response headers are written. */
  warningHeaders: boolean;
  /** WatchBookmark: bookmark events for watches that allow them. */
  watchBookmark: boolean;
}

/** The switches of gates set by name (unset gates at their defaults). */
export function serverFeatures(set: Readonly<Record<string, boolean>> = {}): ServerFeatures {
  const gate: FeatureGate = featureGate(API_SERVER_FEATURES, new Map(Object.entries(set)));
  return {
    listChunking: gate.enabled('APIListChunking'),
    priorityAndFairness: gate.enabled('APIPriorityAndFairness'),
    responseCompression: gate.enabled('APIResponseCompression'),
    dryRun: gate.enabled('DryRun'),
    efficientWatchResumption: gate.enabled('EfficientWatchResumption'),
    remainingItemCount: gate.enabled('RemainingItemCount'),
    serverSideApply: gate.enabled('ServerSideApply'),
    storageVersionHash: gate.enabled('StorageVersionHash'),
    warningHeaders: gate.enabled('WarningHeaders'),
    watchBookmark: gate.enabled('WatchBookmark'),
  };
}
