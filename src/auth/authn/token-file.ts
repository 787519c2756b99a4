/**
 * Static token file (`--token-auth-file`), as upstream's tokenfile authenticator: CSV rows of
 * token, user name, uid and an optional group list (one cell, comma-separated); read once at
 * start; exact match; tokens never expire. Fewer than 3 columns or malformed CSV stops start-up.
 */
import { readFileSync } from 'node:fs';
import type { UserInfo } from '../../machinery/user.js';
import { CsvParseError, parseCsv } from './csv.js';
import type { TokenAuthenticator } from './token.js';

/** A start-up error in the token file, worded as upstream's. */
export class TokenFileError extends Error {}

/** The authenticator of a token file's text (path names it in errors); warnings go to warn. */
export function tokenFileAuthenticator(path: string, text: string, warn: (message: string) => void = () => {}): TokenAuthenticator {
  const tokens = new Map<string, UserInfo>();
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (e) {
    if (e instanceof CsvParseError) throw new TokenFileError(`error reading token file '${path}': ${e.message}`);
    throw e;
  }
  records.forEach((record, index) => {
    if (record.length < 3) throw new TokenFileError(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    const [token, name, uid, groups] = record;
    if (token === '') {
      warn(`empty token has been found in token file '${path}', record ${index + 1}`);
      return;
    }
    if (tokens.has(token)) warn(`duplicate token has been found in token file '${path}', record ${index + 1}`);
    tokens.set(token, { name, uid, groups: groups !== undefined && groups !== '' ? groups.split(',') : [] });
  });
  return {
    authenticateToken(token) {
      const user = tokens.get(token);
      return user ? { ...user, groups: [...user.groups] } : undefined;
    },
  };
}

/** Reads and parses a token file; a missing file is a start-up error too. */
export function readTokenFile(path: string, warn?: (message: string) => void): TokenAuthenticator {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new TokenFileError(`error reading token file '${path}': ${e instanceof Error ? e.message : String(e)}`);
  }
  return tokenFileAuthenticator(path, text, warn);
}
