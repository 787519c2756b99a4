/** Flag value parsers shared by the commands: pflag's types with commander's one-line errors. */
import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../machinery/duration.js';
import { parseBoolError, parseGoBool } from '../machinery/go-bool.js';

/**
 * A flag parser whose every failure is commander's InvalidArgumentError, so a bad value is
 * reported as one line (`error: option '--x <v>' argument 'y' is invalid. <why>`), exit 1.
 */
export function flagValue<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (e) {
      throw new InvalidArgumentError(e instanceof Error ? e.message : String(e));
    }
  };
}

export const duration = flagValue((value: string): number => {
  const ms = parseDuration(value);
  if (ms < 0) throw new Error(`a duration must not be negative, got ${value}`);
  return ms;
});

/** A decimal integer in [min, max]; Number() alone would take '', ' 1', '0x10' and '1e3'. */
export function integer(min: number, max: number, what: string): (value: string) => number {
  return flagValue((value) => {
    const n = /^[+-]?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new Error(`want ${what}`);
    return n;
  });
}

/** A Go-style boolean flag: bare means true, else strconv.ParseBool's spellings. */
export function goBoolFlag(value: string | undefined): boolean {
  if (value === undefined) return true;
  const b = parseGoBool(value);
  if (b === undefined) throw new InvalidArgumentError(parseBoolError(value));
  return b;
}

/** A repeatable flag whose values are kept whole (pflag stringArray). */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A pflag string slice: comma-separated, repeatable. */
export function list(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').filter((v) => v !== '')];
}
