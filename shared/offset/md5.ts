import { md5 } from 'js-md5';

/** Lowercase hex MD5 of the bytes (js-md5 uses Node's crypto under Node and its own code in browsers). */
export function md5Hex(bytes: Uint8Array): string {
  return md5(bytes);
}
