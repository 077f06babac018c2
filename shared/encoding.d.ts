/**
 * The platform APIs the model uses: WHATWG TextEncoder and TextDecoder, which Node, browsers and workers all
 * provide but the ECMAScript library does not declare. Only the pure projects (shared/, live/) read this file; the others
 * get them from the DOM or Node types.
 */
interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
interface TextDecoder {
  decode(input?: Uint8Array): string;
}
declare var TextDecoder: { prototype: TextDecoder; new (label?: string): TextDecoder };
