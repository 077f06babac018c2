/**
 * The one platform API the model uses: WHATWG TextEncoder, which Node, browsers and workers all provide but
 * the ECMAScript library does not declare. Only the pure projects (shared/, live/) read this file; the others
 * get TextEncoder from the DOM or Node types.
 */
interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
