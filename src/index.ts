/**
 * orch's package entry (`import { startControlPlane } from 'orch'`): the embeddable control
 * plane and the types a test suite needs around it. Everything else under dist/ is internal.
 */
export { startControlPlane } from './cmd/control-plane.js';
export type { ControlPlane, ControlPlaneOptions, EtcdOptions, RawRequestOptions, RawResponse, TestNamespace } from './cmd/control-plane-types.js';
