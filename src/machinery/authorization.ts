/** Authorization attributes and decisions, as upstream's authorizer.Attributes. */
import type { UserInfo } from './user.js';

export interface Attributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface Authorizer {
  authorize(attrs: Attributes): Decision;
}
