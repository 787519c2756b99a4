/** Flag value parsers shared by the commands: pflag's types with commander's one-line errors. */
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import { formatDurationMs, parseDuration } from '../machinery/duration.js';
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

/**
 * --help shows a duration flag's default as the user would type it (`1h0m0s`, Go's spelling),
 * not as the milliseconds the parser turns it into.
 */
export function showDurationDefaults(cmd: Command): void {
  for (const opt of cmd.options) {
    if (opt.flags.endsWith('<duration>') && typeof opt.defaultValue === 'number') opt.defaultValueDescription = formatDurationMs(opt.defaultValue);
  }
}

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
