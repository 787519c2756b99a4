/**
 * Accept / Content-Type parsing. A media range carries parameters (`as=Table;g=...;v=...`);
 * the server picks the first range it can produce, in the client's order (q values ignored,
 * as upstream's negotiation treats them).
 */

export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
}

/** Parses one media type such as `application/json;as=Table;v=v1`. */
export function parseMediaType(text: string): MediaRange | undefined {
  const [full, ...rest] = text.split(';');
  const [type, subtype] = full.trim().toLowerCase().split('/');
  if (!type || !subtype) return undefined;
  // Parameter names are the client's: no inherited member may answer for one (`constructor`).
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    params[p.slice(0, eq).trim().toLowerCase()] = p
      .slice(eq + 1)
      .trim()
      .replace(/^"|"$/g, '');
  }
  return { type, subtype, params };
}

/** Parses an Accept header into its ranges, in order; empty means anything. */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === '') return [{ type: '*', subtype: '*', params: {} }];
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const m = parseMediaType(part);
    if (m) out.push(m);
  }
  return out;
}

/** The essence of a Content-Type (`application/json`), lower-cased, without parameters. */
export function mediaTypeEssence(contentType: string | undefined): string {
  if (!contentType) return '';
  return contentType.split(';')[0].trim().toLowerCase();
}
