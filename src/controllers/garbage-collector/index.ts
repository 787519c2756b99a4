/** The garbage collector controller; see garbage-collector.ts. */
export { GarbageCollector, type GarbageCollectorOptions } from './garbage-collector.js';
