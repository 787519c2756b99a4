/** Binding: create-only; posting one binds a pod to a node (the registry does the binding). */
import { core } from '../groups.js';

export const bindings = core({ kind: 'Binding', plural: 'bindings', namespaced: true, verbs: ['create'] });
