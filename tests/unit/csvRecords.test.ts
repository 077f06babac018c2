import { csvParse } from 'd3-dsv';
import { describe, expect, it } from 'vitest';
import { csvRecords } from '../../shared/csv/records.ts';

describe('reading a CSV with a header without compiling a row reader', () => {
  it('keys each row by the header, a missing field reading as ""', () => {
    const rows = csvRecords('t,kind,seq\n1.5,ack,3\n2,send\n');
    expect(rows.columns).toEqual(['t', 'kind', 'seq']);
    expect([...rows]).toEqual([
      { t: '1.5', kind: 'ack', seq: '3' },
      { t: '2', kind: 'send', seq: '' },
    ]);
  });

  it('reads quoted fields, an extra field and an empty text as d3-dsv’s csvParse does', () => {
    for (const text of ['a,b\n"x,1","say ""hi"""\n', 'a,b\n1,2,3\n', '', 'a,b\n']) {
      const want = csvParse(text);
      const got = csvRecords(text);
      expect(got.columns).toEqual(want.columns);
      expect([...got]).toEqual([...want]);
    }
  });
});
