/**
 * Binding: create-only and never stored; posting one binds a pod to a node (the registry's
 * pod binding does the work, for this resource and for pods/<name>/binding alike).
 */
import { core } from '../groups.js';

export const bindings = core({ kind: 'Binding', plural: 'bindings', namespaced: true, verbs: ['create'], virtual: true });
