import { aimd } from './aimd.ts';
import { bbr } from './bbr.ts';
import { bdpEstimator } from './bdpEstimator.ts';
import { burstAimd } from './burstAimd.ts';
import { constantBurst } from './constantBurst.ts';
import { copa } from './copa.ts';
import { cubic } from './cubic.ts';
import { dctcp } from './dctcp.ts';
import { delayTrigger } from './delayTrigger.ts';
import { deliveryTrend } from './deliveryTrend.ts';
import { fixed } from './fixed.ts';
import { fixedTimer } from './fixedTimer.ts';
import { prague } from './prague.ts';
import { rateBased } from './rateBased.ts';
import { reno } from './reno.ts';
import { tokenPacer } from './tokenPacer.ts';
import { vegas } from './vegas.ts';
import type { Scheme } from './types.ts';
import { watermarks } from './watermarks.ts';

/** Every scheme, in the order pickers and --help list them. */
export const SCHEMES: readonly Scheme[] = [
  fixed,
  aimd,
  delayTrigger,
  watermarks,
  deliveryTrend,
  rateBased,
  bdpEstimator,
  reno,
  fixedTimer,
  cubic,
  bbr,
  vegas,
  copa,
  dctcp,
  prague,
  burstAimd,
  constantBurst,
  tokenPacer,
];

/**
 * The schemes a run, a picker or a link may name: the built-ins, and the user's own once something loaded
 * it (the worker from the editor's text, the CLIs from --scheme FILE). Whoever loads it makes the
 * catalogue and hands it to what needs it; there is no scheme installed anywhere else.
 */
export type SchemeCatalogue = readonly Scheme[];

/** The built-ins with the user's scheme among them, when there is one. */
export const withUserScheme = (user: Scheme | null | undefined): SchemeCatalogue => (user ? [...SCHEMES, user] : SCHEMES);

/** The scheme of that id in the catalogue (the built-ins unless told otherwise). */
export function findScheme(id: string, schemes: SchemeCatalogue = SCHEMES): Scheme | undefined {
  return schemes.find((s) => s.id === id);
}

/** Window schemes built around the offset server's token bucket: their parameters are the server's, not a link's. */
const OFFSET_SERVER_WINDOWS = new Set(['token-pacer']);

/** Whether a scheme is made for the offset server (bursts of requests, or pacing to its tokens). */
export const madeForOffsetServer = (s: Scheme): boolean => s.mode === 'burst' || OFFSET_SERVER_WINDOWS.has(s.id);

/** Schemes made for the reliable-transport matrix: the course's own sender, there to compare with Reno. */
const MATRIX_WINDOWS = new Set(['fixed-timer']);

/** Schemes whose response is to ECN marks: on the contest's drop-tail queue, which marks nothing, each is Reno. */
const ECN_WINDOWS = new Set(['dctcp', 'prague']);

/** The schemes a contest link runs: every one not made for the offset server, the matrix or an ECN queue. */
export const contestSchemes = (): Scheme[] => SCHEMES.filter((s) => !madeForOffsetServer(s) && !MATRIX_WINDOWS.has(s.id) && !ECN_WINDOWS.has(s.id));
