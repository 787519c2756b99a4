/**
 * The shapes of server-side Table printing (meta/v1 Table): a column definition exactly as
 * upstream's metav1.TableColumnDefinition serializes, and a printer that turns one object into
 * its rows of cells, as upstream's per-type print functions in pkg/printers/internalversion do.
 */
import type { Obj } from '../machinery/object.js';

/** metav1.TableColumnDefinition; every field is always serialized. */
export interface TableColumnDefinition {
  name: string;
  /** OpenAPI type of the cells: string, integer, number, boolean, date. */
  type: string;
  /** OpenAPI format hint: `name` marks the column that holds the object's name. */
  format: string;
  description: string;
  /** 0: always shown; 1: shown by `-o wide` only. */
  priority: number;
}

/** metav1.TableRowCondition; reason and message are omitted when empty. */
export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/**
 * How one kind prints. The server prints every column, wide ones included (upstream's
 * TableConvertor always generates with Wide: true), so rows carry a cell per column.
 */
export interface TablePrinter {
  columns: TableColumnDefinition[];
  /** The rows of one object (upstream's print functions return []TableRow; all return one). */
  rows(obj: Obj, now: Date): unknown[][];
  /** Conditions of the object's rows, when upstream sets any (finished pods are Completed). */
  conditions?(obj: Obj): TableRowCondition[] | undefined;
  /** The order a list prints in, when upstream's list printer sorts (flow schemas). */
  sortList?(objects: readonly Obj[]): Obj[];
  /** Upstream's default convertor appends to a nil slice: an empty list has `rows: null`. */
  nullRowsWhenEmpty?: boolean;
}
