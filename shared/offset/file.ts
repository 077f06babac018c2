import { Rng } from '../sim/rng.ts';

const WORDS = (
  'the of and to in is was that for on are with as be by this at from or have an they which one you were all we ' +
  'her she there would their will when who him been has more if no out so said what up its about than into them ' +
  'can only other new some could time these two may first then do any like my now over such our man me even most ' +
  'made after also did many before must through back years where much your way well down should because each just ' +
  'packet window queue delay router link loss burst token bucket rate offset server client timeout ack sender'
).split(' ');

/** The text file the offset server serves: words and line breaks drawn from the seed, `size` bytes exactly. */
export function generateFile(size: number, seed: number): Uint8Array {
  const rng = new Rng(seed, 'offset-file');
  const out = new Uint8Array(size);
  let i = 0;
  let column = 0;
  while (i < size) {
    const word = WORDS[rng.int(WORDS.length)];
    for (let k = 0; k < word.length && i < size; k++) out[i++] = word.charCodeAt(k);
    column += word.length + 1;
    if (i < size) out[i++] = column > 72 ? 10 : 32;
    if (column > 72) column = 0;
  }
  return out;
}
