/**
 * Serves `/openapi/v2` and `/openapi/v3[/<group-version>]` as kube-openapi's handlers do:
 * media type chosen from Accept (goautoneg order), a quoted ETag with If-None-Match (304) and
 * Last-Modified as Go's ServeContent, gzip for v2 when accepted (its gziphandler), and for a
 * v3 document requested with its `hash`, immutable caching (or a 301 to the current hash).
 */
import { parseMediaType } from '../../codec/accept.js';
import { pathNotFound } from '../../machinery/status.js';
import { acceptsGzipEncoding, type Request, type Response } from '../http.js';
import type { OpenAPIDocuments, Representation } from './documents.js';

const JSON_TYPE = 'application/json';
const V2_PROTOBUF = 'com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The subtype kubectl sends; answered with the current one as Content-Type. */
const V2_PROTOBUF_DEPRECATED = 'com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** gziphandler's default threshold: smaller bodies go out uncompressed. */
const GZIP_MIN_SIZE = 1400;

interface Clause {
  type: string;
  subtype: string;
  q: number;
}

/** goautoneg's ParseAccept: clauses by quality, then specific types before wildcards; empty means anything. */
export function acceptClauses(header: string | undefined): Clause[] {
  const text = header === undefined || header.trim() === '' ? '*/*' : header;
  const clauses: Clause[] = [];
  for (const part of text.split(',')) {
    const m = parseMediaType(part);
    if (!m) continue;
    const q = m.params.q === undefined ? 1 : Number(m.params.q);
    clauses.push({ type: m.type, subtype: m.subtype, q: Number.isNaN(q) ? 0 : q });
  }
  const rank = (c: Clause) => (c.type === '*' ? 0 : 2) + (c.subtype === '*' ? 0 : 1);
  return clauses.sort((a, b) => b.q - a.q || rank(b) - rank(a));
}

/** The first offered subtype (of `application/`) that the client's clauses accept, in clause order. */
export function negotiateSubtype(header: string | undefined, offered: readonly string[]): string | undefined {
  for (const c of acceptClauses(header)) {
    if (c.type !== 'application' && c.type !== '*') continue;
    const hit = offered.find((s) => c.subtype === s || c.subtype === '*');
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Go's checkIfNoneMatch: any listed tag (weak comparison) or `*` matches. */
function noneMatchHits(header: string, etag: string): boolean {
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

interface Content {
  rep: Representation;
  contentType: string;
  lastModified: Date;
  headers: Record<string, string | string[]>;
  gzip: boolean;
}

/** Go's http.ServeContent (without ranges): 304 on a matching If-None-Match or an unchanged If-Modified-Since. */
function serveContent(req: Request, res: Response, c: Content): void {
  const etag = `"${c.rep.etag}"`;
  const headers: Record<string, string | string[]> = { ...c.headers, etag, 'last-modified': c.lastModified.toUTCString() };
  const ifNoneMatch = req.headers['if-none-match'];
  const ifModifiedSince = req.headers['if-modified-since'];
  const notModified =
    ifNoneMatch !== undefined
      ? noneMatchHits(ifNoneMatch, etag)
      : ifModifiedSince !== undefined && Math.floor(c.lastModified.getTime() / 1000) * 1000 <= Date.parse(ifModifiedSince);
  if (notModified) {
    // writeNotModified: no entity headers; Last-Modified goes too when an ETag is present.
    delete headers['last-modified'];
    res.writeHead(304, headers);
    res.end();
    return;
  }
  let body = c.rep.bytes;
  if (c.gzip && body.length >= GZIP_MIN_SIZE && acceptsGzipEncoding(req)) {
    body = c.rep.gzipped();
    headers['content-encoding'] = 'gzip';
  }
  res.writeHead(200, { ...headers, 'content-type': c.contentType, 'content-length': String(body.length) });
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

function notAcceptable(res: Response, headers: Record<string, string | string[]>): void {
  res.writeHead(406, { ...headers, 'content-length': '0' });
  res.end();
}

/** `/openapi/v2`: JSON or gnostic Protocol Buffers, by Accept. */
function serveV2(docs: OpenAPIDocuments, req: Request, res: Response): void {
  // gziphandler announces Accept-Encoding on every response; the handler adds Accept.
  const headers = { vary: ['Accept-Encoding', 'Accept'] };
  const subtype = negotiateSubtype(req.headers.accept as string | undefined, ['json', V2_PROTOBUF_DEPRECATED, V2_PROTOBUF]);
  if (subtype === undefined) {
    notAcceptable(res, headers);
  } else if (subtype === 'json') {
    serveContent(req, res, { rep: docs.v2Json(), contentType: JSON_TYPE, lastModified: docs.lastModified, headers, gzip: true });
  } else {
    serveContent(req, res, { rep: docs.v2Protobuf(), contentType: `application/${V2_PROTOBUF}`, lastModified: docs.lastModified, headers, gzip: true });
  }
}

/** `/openapi/v3/<key>[?hash=]`: JSON only (the v3 Protocol Buffers form is not served). */
function serveV3Document(docs: OpenAPIDocuments, req: Request, res: Response, key: string, hash: string | null): void {
  const rep = docs.v3(key);
  if (rep === undefined) throw pathNotFound();
  const headers: Record<string, string | string[]> = { vary: 'Accept' };
  if (negotiateSubtype(req.headers.accept as string | undefined, ['json']) === undefined) {
    notAcceptable(res, headers);
    return;
  }
  if (hash && hash !== rep.etag) {
    // A stale link: point at the document's current hash.
    res.writeHead(301, {
      ...headers,
      'content-type': JSON_TYPE,
      etag: `"${rep.etag}"`,
      location: `/openapi/v3/${key}?hash=${rep.etag}`,
      'content-length': '0',
    });
    res.end();
    return;
  }
  if (hash) {
    // Content under a hash never changes: cache it for the longest Expires allows (a year).
    const expires = new Date();
    expires.setUTCFullYear(expires.getUTCFullYear() + 1);
    headers['cache-control'] = 'public, immutable';
    headers.expires = expires.toUTCString();
  }
  serveContent(req, res, { rep, contentType: JSON_TYPE, lastModified: docs.lastModified, headers, gzip: false });
}

/** Serves the OpenAPI path `path` (`/openapi/...`); throws a 404 Status for any other path. */
export function serveOpenAPI(docs: OpenAPIDocuments, req: Request, res: Response, path: string, query: URLSearchParams): void {
  if (path === '/openapi/v2') {
    serveV2(docs, req, res);
  } else if (path === '/openapi/v3') {
    // Upstream assembles the index per request, so it is always "modified now".
    serveContent(req, res, { rep: docs.v3Index(), contentType: JSON_TYPE, lastModified: new Date(), headers: {}, gzip: false });
  } else if (path.startsWith('/openapi/v3/')) {
    serveV3Document(docs, req, res, path.slice('/openapi/v3/'.length), query.get('hash'));
  } else {
    throw pathNotFound();
  }
}
