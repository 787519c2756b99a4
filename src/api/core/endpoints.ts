/** Endpoints (the kind and the resource are both plural). */
import { core } from '../groups.js';

export const endpoints = core({ kind: 'Endpoints', plural: 'endpoints', shortNames: ['ep'], namespaced: true });
