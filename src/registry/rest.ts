/**
 * The capability objects of each served resource and subresource, built once at registration
 * (upstream's per-group storage providers): a stored resource's generic store, the review
 * resources, and pod binding (for `bindings` and `pods/<name>/binding` alike). Which
 * capabilities exist is what a resource serves.
 */
import { successStatus } from '../machinery/status.js';
import { NO_OPINION, NO_RULES } from '../machinery/authorization.js';
import type { Verb } from '../api/types.js';
import { type Capabilities, type CollectionDeleter, type Creater, type Patcher, restrictTo, type Updater, verbsOf } from './capabilities.js';
import type { GenericStore } from './generic-store.js';
import { listEntries } from './list.js';
import { bindPod, type PodStores } from './pod-binding.js';
import { type TokenIssuer, tokenRequestCreater } from './token-request.js';
import type { ResourceInfo } from './resource-info.js';
import { review, type ReviewDeps } from './reviews.js';
import type { SubresourceDeclaration } from './subresources.js';
import { startWatch } from './watch.js';
import { scaleCapabilities } from './scale.js';
import { evictionCreater } from './eviction.js';
import { connecterOf } from './connect-location.js';
import { parseJson } from '../machinery/json-parse-steps.js';
import { metaOf, type Obj } from '../machinery/object.js';

/** What capabilities are built from besides the resource's own store. */
export interface RestDeps {
  stores: PodStores;
  /** Who review resources ask; absent: every review is answered as denied / unauthenticated. */
  reviews?: ReviewDeps;
  /** Who signs service-account tokens (serviceaccounts/token); absent: token requests are refused. */
  tokens?: TokenIssuer;
}

const NO_REVIEWS: ReviewDeps = { authorizer: { authorize: () => NO_OPINION, rulesFor: () => NO_RULES }, authenticateToken: async () => ({}) };

/** An Updater writing one subresource ('' for the main resource) through the store's update loop. */
function updaterOf(gs: GenericStore, subresource: string, patches: true): Patcher;
function updaterOf(gs: GenericStore, subresource: string): Updater;
function updaterOf(gs: GenericStore, subresource: string, patches?: true): Updater | Patcher {
  const update: Updater['update'] = (ctx, namespace, name, transform, opts) => gs.guaranteedUpdate(ctx, namespace, name, transform, { ...opts, subresource });
  return patches ? { update, patches } : { update };
}

function collectionDeleterOf(gs: GenericStore): CollectionDeleter {
  return {
    async deleteCollection(ctx, namespace, listOpts, plan, selection, optsFor) {
      const list = await listEntries(gs, namespace, listOpts, plan, selection, ctx.brand.metaGroup);
      for (const entry of list.entries) {
        // One object at a time (a large one parsed in steps): the list may hold gigabytes.
        const meta = metaOf((await parseJson(entry.json.toString('utf8'), ctx.pace)) as Obj);
        try {
          await gs.delete(ctx, meta.namespace ?? '', meta.name ?? '', optsFor(meta.name ?? ''));
        } catch (e) {
          // Objects deleted concurrently are simply gone; anything else fails the request.
          if ((e as { code?: number }).code !== 404) throw e;
        }
      }
      return list;
    },
  };
}

/** Binding: validates and binds the pod; answers upstream's `{status: Success, code: 201}`. */
function bindingCreater(stores: PodStores): Creater {
  return {
    async create(ctx, namespace, binding, opts) {
      await bindPod(stores, ctx, namespace, binding, { dryRun: opts.dryRun, urlName: opts.name, validatingAdmission: opts.validatingAdmission });
      return { ...successStatus(), code: 201 };
    },
  };
}

function reviewCreater(info: ResourceInfo, deps: RestDeps): Creater {
  return { create: async (ctx, namespace, obj) => review(info, deps.reviews ?? NO_REVIEWS, ctx, namespace, obj) };
}

/** The capabilities of a resource itself. */
export function resourceCapabilities(info: ResourceInfo, gs: GenericStore, deps: RestDeps): Capabilities {
  let all: Capabilities;
  if (info.def.virtual) {
    // Not stored: a Binding binds a pod, every other virtual resource is a review.
    all = { creater: info.group === '' && info.kind === 'Binding' ? bindingCreater(deps.stores) : reviewCreater(info, deps) };
  } else {
    all = {
      getter: gs,
      lister: { list: (namespace, opts, plan, selection) => listEntries(gs, namespace, opts, plan, selection, gs.brand.metaGroup) },
      watcher: { watch: (namespace, plan, selection) => startWatch(gs, namespace, plan, selection) },
      creater: gs,
      updater: updaterOf(gs, ''),
      patcher: updaterOf(gs, '', true),
      deleter: gs,
      collectionDeleter: collectionDeleterOf(gs),
    };
  }
  return checked(info.plural, restrictTo(all, info.verbs), info.verbs);
}

/** The capabilities of one declared subresource. */
export function subresourceCapabilities(info: ResourceInfo, sub: SubresourceDeclaration, gs: GenericStore, deps: RestDeps): Capabilities {
  const all: Capabilities =
    sub.storage === 'binding'
      ? { creater: bindingCreater(deps.stores) }
      : sub.storage === 'token'
        ? { creater: tokenRequestCreater(deps.stores, deps.tokens) }
        : sub.storage === 'scale'
          ? scaleCapabilities(gs)
          : sub.storage === 'eviction'
            ? { creater: evictionCreater(deps.stores) }
            : sub.storage === 'connect'
              ? { connecter: connecterOf(deps.stores, info.plural, sub.name, sub.verbs) }
              : { getter: gs, updater: updaterOf(gs, sub.name), patcher: updaterOf(gs, sub.name, true) };
  const verbs = new Set<Verb>(sub.verbs);
  return checked(`${info.plural}/${sub.name}`, restrictTo(all, verbs), verbs);
}

/** A declaration naming a verb its storage cannot serve is a bug in the catalogue: refuse to register it. */
function checked(what: string, caps: Capabilities, declared: ReadonlySet<Verb>): Capabilities {
  const served = verbsOf(caps);
  for (const v of declared) if (!served.has(v)) throw new Error(`${what} declares verb ${v} but implements no capability for it`);
  return caps;
}
