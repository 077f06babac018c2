import { csvParseRows } from 'd3-dsv';

/**
 * A CSV's rows after its header, as objects keyed by the header's names (a missing field reads as ""),
 * as d3-dsv's csvParse reads them. csvParse builds its row reader with `new Function`, which the page's
 * Content-Security-Policy refuses (server/securityHeaders.ts): this reads the rows as they are.
 */
export function csvRecords(text: string): Record<string, string>[] & { columns: string[] } {
  const [columns = [], ...rest] = csvParseRows(text);
  const rows = rest.map((fields) => {
    const row: Record<string, string> = {};
    columns.forEach((name, i) => {
      row[name] = fields[i] || '';
    });
    return row;
  });
  return Object.assign(rows, { columns });
}
