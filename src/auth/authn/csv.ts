/**
 * RFC 4180 records as Go's encoding/csv reads them with FieldsPerRecord = -1 (upstream's token
 * file): quoted fields may hold commas, quotes ("") and newlines; blank lines are skipped; no
 * trimming and no comments; a stray quote is an error naming its line and column, as Go's.
 */

export class CsvParseError extends Error {}

/** Every record of text; throws CsvParseError as Go's csv.Reader would fail. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    // Blank lines (also \r\n ones) are skipped, as Go's reader does.
    if (text[i] === '\n') {
      i++;
      line++;
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') {
      i += 2;
      line++;
      continue;
    }
    const record: string[] = [];
    const recordLine = line;
    let lineStart = i;
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        const quoteLine = line;
        const quoteColumn = i - lineStart + 1;
        i++;
        for (;;) {
          if (i >= n)
            throw new CsvParseError(
              `record on line ${recordLine}; parse error on line ${quoteLine}, column ${quoteColumn}: extraneous or missing " in quoted-field`,
            );
          const c = text[i];
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') {
            line++;
            lineStart = i + 1;
          }
          field += c === '\r' && text[i + 1] === '\n' ? '' : c;
          i++;
        }
        const after = text[i];
        if (i < n && after !== ',' && after !== '\n' && !(after === '\r' && text[i + 1] === '\n')) {
          throw new CsvParseError(`parse error on line ${line}, column ${i - lineStart + 1}: extraneous or missing " in quoted-field`);
        }
      } else {
        const start = i;
        while (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          if (text[i] === '"') throw new CsvParseError(`parse error on line ${line}, column ${i - lineStart + 1}: bare " in non-quoted-field`);
          i++;
        }
        field = text.slice(start, i);
      }
      record.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      // End of record: newline or end of text.
      if (text[i] === '\r') i++;
      if (text[i] === '\n') {
        i++;
        line++;
      }
      break;
    }
    records.push(record);
  }
  return records;
}
