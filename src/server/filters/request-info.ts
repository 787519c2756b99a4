/** First filter: splits the URL and resolves what the request addresses (upstream's WithRequestInfo). */
import { requestInfo } from '../request-info.js';
import type { Filter } from './chain.js';

export const withRequestInfo: Filter = (state, next) => {
  state.received = performance.now();
  const rawUrl = state.req.url ?? '/';
  const q = rawUrl.indexOf('?');
  state.path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  state.query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
  state.info = requestInfo(state.req.method ?? 'GET', state.path, state.query);
  return next(state);
};
