import aimd from '../../shared/controllers/copies/aimd.js?raw';
import bdp from '../../shared/controllers/copies/bdp.js?raw';
import delayTrigger from '../../shared/controllers/copies/delayTrigger.js?raw';
import fixed from '../../shared/controllers/copies/fixed.js?raw';
import reno from '../../shared/controllers/copies/reno.js?raw';
import watermarks from '../../shared/controllers/copies/watermarks.js?raw';
import deliveryTrend from '../../shared/controllers/copies/deliveryTrend.js?raw';
import rateBased from '../../shared/controllers/copies/rateBased.js?raw';
import vegas from '../../shared/controllers/copies/vegas.js?raw';
import copa from '../../shared/controllers/copies/copa.js?raw';
import burstAimd from '../../shared/controllers/copies/burstAimd.js?raw';
import constantBurst from '../../shared/controllers/copies/constantBurst.js?raw';
import tokenPacer from '../../shared/controllers/copies/tokenPacer.js?raw';
import cubic from '../../shared/controllers/copies/cubic.js?raw';
import bbr from '../../shared/controllers/copies/bbr.js?raw';

/**
 * Readable JavaScript versions of built-ins, by scheme id, that a student edits ("Edit a copy"). Each
 * gives the built-in's numbers on the same run (tests/unit/userSchemeCopies*.test.ts).
 */
export const COPIES: Readonly<Record<string, string>> = {
  fixed,
  aimd,
  'delay-trigger': delayTrigger,
  watermarks,
  'delivery-trend': deliveryTrend,
  'rate-based': rateBased,
  bdp,
  reno,
  cubic,
  bbr,
  vegas,
  copa,
  'burst-aimd': burstAimd,
  'constant-burst': constantBurst,
  'token-pacer': tokenPacer,
};

/** A short, complete controller: the editor's starting text and the help's example. */
export const EXAMPLE = `// A controller: the default export declares its parameters (sliders are made from them)
// and create(params) returns the object the sender asks for its window and tells of ACKs.
export default {
  title: 'My AIMD',
  params: [
    { name: 'a', unit: 'packets', min: 0.1, max: 4, step: 0.1, default: 1, doc: 'Increase per window of ACKs' },
    { name: 'b', unit: '', min: 0.1, max: 0.9, step: 0.05, default: 0.5, doc: 'Factor on a timeout' },
  ],
  create(p) {
    let w = 1;
    return {
      windowSize() { return w; },              // packets in flight (the sender truncates, at least 1)
      onAck(ack) { w += p.a / w; },              // ack: seq, sentAt, receivedAt, now, cumulative, inFlight
      onTimeout(now) { w = Math.max(1, w * p.b); }, // no ACK for timeoutMs()
      timeoutMs() { return 200; },               // optional, default 1000
    };
  },
};
`;
