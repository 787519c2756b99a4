/**
 * Printers of the events group: an events/v1 Event prints as upstream prints every Event, from
 * its core form (both views share the core storage and its table convertor).
 */
import { eventToCore } from '../api/events/event-conversion.js';
import { eventPrinter } from './core-event.js';
import type { TablePrinter } from './types.js';

/** The events group's printers by kind. */
export function eventsPrinters(): Record<string, TablePrinter> {
  return { Event: eventPrinter(eventToCore) };
}
