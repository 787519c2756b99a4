/**
 * The namespaced Roles and RoleBindings of upstream 1.25's bootstrap policy
 * (bootstrappolicy/namespace_policy.go): in the system namespace, the readers of the
 * authentication config map, the components' leader-election locks and the bootstrap-token
 * controllers; in the public namespace, the signer of `cluster-info`.
 */
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { binding, CONTROLLER_ROLE_PREFIX, componentNames, role, serviceAccount, user } from './bootstrap-objects.js';
import { eventsRule, policyGroups, READ, rule } from './policy-rules.js';

export function namespaceRoles(brand: Brand): Obj[] {
  const g = policyGroups(brand);
  const names = componentNames(brand);
  const sys = brand.systemNamespace;
  // Upstream's leader election locked a config map named after the component.
  const leaderLocking = (component: string) =>
    role(brand, `system::leader-locking-${component}`, sys, [
      rule(['watch'], [g.core], ['configmaps']),
      rule(['get', 'update'], [g.core], ['configmaps'], [component]),
    ]);
  return [
    // Extension API servers read the client-CA and request-header settings from here.
    role(brand, 'extension-apiserver-authentication-reader', sys, [rule(READ, [g.core], ['configmaps'], ['extension-apiserver-authentication'])]),
    leaderLocking(names.controllerManager),
    leaderLocking(names.scheduler),
    role(brand, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, sys, [rule(READ, [g.core], ['secrets'])]),
    role(brand, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, sys, [rule(['create', 'get', 'list', 'watch'], [g.core], ['configmaps'])]),
    role(brand, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, sys, [rule(['delete', 'get', 'list', 'watch'], [g.core], ['secrets']), eventsRule(g)]),
    role(brand, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, brand.publicNamespace, [
      rule(READ, [g.core], ['configmaps']),
      rule(['update'], [g.core], ['configmaps'], ['cluster-info']),
      eventsRule(g),
    ]),
  ];
}

export function namespaceRoleBindings(brand: Brand): Obj[] {
  const names = componentNames(brand);
  const sys = brand.systemNamespace;
  const toRole = (name: string, namespace: string, subjects: Parameters<typeof binding>[4]) =>
    binding(brand, name, namespace, { kind: 'Role', name }, subjects);
  return [
    binding(brand, 'system::extension-apiserver-authentication-reader', sys, { kind: 'Role', name: 'extension-apiserver-authentication-reader' }, [
      user(brand, names.controllerManagerUser),
      user(brand, names.schedulerUser),
    ]),
    toRole(`system::leader-locking-${names.controllerManager}`, sys, [user(brand, names.controllerManagerUser), serviceAccount(sys, names.controllerManager)]),
    toRole(`system::leader-locking-${names.scheduler}`, sys, [user(brand, names.schedulerUser), serviceAccount(sys, names.scheduler)]),
    toRole(`${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, sys, [serviceAccount(sys, 'bootstrap-signer')]),
    toRole(`${CONTROLLER_ROLE_PREFIX}cloud-provider`, sys, [serviceAccount(sys, 'cloud-provider')]),
    toRole(`${CONTROLLER_ROLE_PREFIX}token-cleaner`, sys, [serviceAccount(sys, 'token-cleaner')]),
    toRole(`${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, brand.publicNamespace, [serviceAccount(sys, 'bootstrap-signer')]),
  ];
}
