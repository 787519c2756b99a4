/** Column definitions shared by every printer, as upstream spells them. */
import { META_V1 } from './descriptions.js';
import type { TableColumnDefinition } from './types.js';

/** A column: name, OpenAPI type and description; priority 1 marks a `-o wide` column. */
export function column(name: string, type: string, description: string, opts: { format?: string; priority?: number } = {}): TableColumnDefinition {
  return { name, type, format: opts.format ?? '', description, priority: opts.priority ?? 0 };
}

/** A `-o wide` column. */
export function wide(name: string, type: string, description: string, format?: string): TableColumnDefinition {
  return column(name, type, description, { format, priority: 1 });
}

/** The Name column every printer starts with (metav1.ObjectMeta's name doc). */
export const NAME_COLUMN: TableColumnDefinition = column('Name', 'string', META_V1['ObjectMeta.name'], { format: 'name' });

/** The Age column (metav1.ObjectMeta's creationTimestamp doc). */
export const AGE_COLUMN: TableColumnDefinition = column('Age', 'string', META_V1['ObjectMeta.creationTimestamp']);

/** Upstream's wide Containers and Images columns of workload templates. */
export function containerColumns(priority: number): TableColumnDefinition[] {
  return [
    column('Containers', 'string', 'Names of each container in the template.', { priority }),
    column('Images', 'string', 'Images referenced by each container in the template.', { priority }),
  ];
}
