import { describe, expect, it } from 'vitest';
import { generateFile } from '../../shared/offset/file.ts';
import { md5Hex } from '../../shared/offset/md5.ts';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('the offset server’s file', () => {
  it('is words from the seed, a space apart, with a line break once a line passes 72 columns, cut at exactly its size', () => {
    const lines = text(generateFile(400, 1)).split('\n');
    expect(lines[0]).toBe('offset what where than rate must was loss link loss is then in the also so');
    expect(lines.at(-1)).toBe('link at than have well th'); // the last word cut at byte 400
    for (const line of lines.slice(0, -1)) {
      // the word that crosses column 72 ends the line
      expect(line.length).toBeGreaterThan(72 - 1);
      expect(line.length - line.split(' ').at(-1)!.length - 1).toBeLessThanOrEqual(72);
    }
    expect(generateFile(400, 1).length).toBe(400);
    expect(generateFile(1, 1)).toEqual(new Uint8Array([111])); // "o" of "offset"
  });

  it('is the same for a seed whatever its size, up to that size, and another for another seed', () => {
    expect(generateFile(1000, 1).subarray(0, 400)).toEqual(generateFile(400, 1));
    expect(text(generateFile(40, 2))).not.toBe(text(generateFile(40, 1)));
    // The relay's default file: 1,000,000 bytes from seed 1, the MD5 a correct Submit names
    expect(md5Hex(generateFile(1_000_000, 1))).toBe('de70427b9e91bbd1023de6c53d3dda5c');
  });
});
