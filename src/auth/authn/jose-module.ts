/**
 * jose, loaded on first use: only service-account and OIDC tokens need it, and importing it
 * eagerly costs every start-up its load time. Every caller is already asynchronous.
 */
type Jose = typeof import('jose');

let jose: Promise<Jose> | undefined;

export function loadJose(): Promise<Jose> {
  jose ??= import('jose');
  return jose;
}
