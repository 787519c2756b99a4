/**
 * A StorageClass's allowedTopologies as upstream's validateAllowedTopologies and
 * ValidateTopologySelectorTerm check them: each requirement has values (no repeats) and a valid
 * label key, no key twice in a term, and no term that repeats an earlier one.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import { duplicate, type FieldError, required } from '../../machinery/status.js';
import { validateLabelName } from '../../machinery/validation.js';
import { list, records, str, strings } from '../../machinery/fields.js';
import { setOwn } from '../../machinery/own-property.js';

/** One term's requirements as key -> value set (for comparing terms), and the term's errors. */
function termErrors(term: Record<string, unknown>, fldPath: string): { exprs: Record<string, string[]>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const exprs: Record<string, string[]> = {};
  records(term.matchLabelExpressions).forEach((req, i) => {
    const path = `${fldPath}.matchLabelExpressions[${i}]`;
    const values = strings(req.values);
    if (values.length === 0) errs.push(required(`${path}.values`, ''));
    const seen = new Set<string>();
    values.forEach((v, j) => {
      if (seen.has(v)) errs.push(duplicate(`${path}.values[${j}]`, v));
      seen.add(v);
    });
    const key = str(req.key);
    errs.push(...validateLabelName(key, `${path}.key`));
    if (Object.hasOwn(exprs, key)) errs.push(duplicate(`${path}.key`, key));
    setOwn(exprs, key, [...seen].sort());
  });
  return { exprs, errs };
}

/** Upstream's validateAllowedTopologies at fldPath (`allowedTopologies`). */
export function allowedTopologiesErrors(topologies: unknown, fldPath: string): FieldError[] {
  const terms = records(topologies);
  if (terms.length === 0) return [];
  const errs: FieldError[] = [];
  // Upstream compares each term with a list that starts as len(terms) empty maps, so a term
  // without requirements always counts as a repeat.
  const seen: Record<string, string[]>[] = list(topologies).map(() => ({}));
  terms.forEach((term, i) => {
    const path = `${fldPath}[${i}]`;
    const { exprs, errs: termErrs } = termErrors(term, path);
    errs.push(...termErrs);
    for (const earlier of seen) if (deepEqual(exprs, earlier)) errs.push(duplicate(`${path}.matchLabelExpressions`, ''));
    seen.push(exprs);
  });
  return errs;
}
