// Token pacer, for the offset server, whose token bucket refills at a steady rate. It paces requests
// just slower than that rate, so every request finds the token that accrued since the last one. A
// request the server drops keeps its token in the bucket, so each loss lets one extra request ride
// right behind the next paced one. When many more requests go unanswered than the server's own loss
// explains, the pacing was too fast (a slower phase began): the rate falls to what the answers say;
// while answers look healthy it climbs back, up to maxRate.
export default {
  title: 'Token pacer (my copy)',
  params: [
    { name: 'rate', unit: 'requests/s', min: 1, max: 10000, step: 1, default: 250, doc: 'The token rate to pace at first' },
    { name: 'margin', unit: '%', min: 0, max: 50, step: 0.1, default: 3, doc: 'How much slower than the rate to pace, so jitter never makes a request early' },
    { name: 'loss', unit: '%', min: 0, max: 90, step: 1, default: 11, doc: "The server's own loss: more unanswered than this means pacing too fast" },
    { name: 'maxRate', unit: 'requests/s', min: 1, max: 10000, step: 1, default: 250, doc: 'The pace never climbs above this' },
    { name: 'window', unit: 'requests', min: 5, max: 500, step: 1, default: 20, doc: 'Requests judged together before the rate changes' },
    { name: 'bucket', unit: 'tokens', min: 1, max: 1000, step: 1, default: 10, doc: "The server's bucket: spare tokens never exceed it" },
    { name: 'minTimeout', unit: 'ms', min: 1, max: 2000, step: 1, default: 15, doc: 'Shortest wait before a request counts as lost' },
  ],
  create(p) {
    const margin = p.margin / 100;
    const expectedLoss = p.loss / 100;
    let rate = p.rate;
    let spares = 0; // tokens lost requests left in the bucket
    let extraNext = false; // the next request rides right behind the last, on a spare token
    let srtt = NaN;
    const outstanding = new Map(); // request → when it was sent
    const extras = new Set(); // extras in flight: one unanswered most likely found no token
    let answered = 0;
    let lost = 0;

    const timeout = () => Math.max(p.minTimeout, 4 * (Number.isNaN(srtt) ? p.minTimeout : srtt));

    // Every `window` requests: too many unanswered slows the pace, few lets it climb.
    function judge() {
      const resolved = answered + lost;
      if (resolved < p.window) return;
      const unanswered = lost / resolved;
      if (unanswered > expectedLoss + 0.15) {
        // answered ≈ tokens: scale the rate to what the server actually gave, at most halving at once
        rate = Math.max(5, rate * Math.max(0.5, (1 - unanswered) / (1 - expectedLoss)));
        spares = 0;
      } else if (unanswered <= expectedLoss + 0.08) {
        rate = Math.min(p.maxRate, rate * 1.25);
      }
      answered = lost = 0;
    }

    // Requests unanswered for the timeout are lost; each paced one left its token behind.
    function countLosses(now) {
      const wait = timeout();
      for (const [seq, sentAt] of outstanding) {
        if (sentAt + wait > now) continue;
        outstanding.delete(seq);
        lost++;
        if (!extras.delete(seq)) spares = Math.min(p.bucket - 1, spares + 1);
      }
      judge();
    }

    return {
      // at this pace no more requests than rate × timeout can be awaiting a reply (two spare for extras)
      windowSize() {
        return Math.ceil((rate * timeout()) / 1000) + 2;
      },
      pacingRate() {
        return extraNext ? Infinity : rate * (1 - margin);
      },
      onSend(seq, now) {
        outstanding.set(seq, now);
        if (extraNext) {
          extraNext = false;
          extras.add(seq);
        } else if (spares >= 1) {
          spares--;
          extraNext = true;
        }
      },
      onAck(ack) {
        const rtt = ack.now - ack.sentAt;
        srtt = Number.isNaN(srtt) ? rtt : 0.875 * srtt + 0.125 * rtt;
        if (outstanding.delete(ack.seq)) answered++;
        extras.delete(ack.seq);
        judge();
      },
      onLoss(now, seq) {
        countLosses(now);
      },
      onTimeout(now) {
        countLosses(now);
      },
      timeoutMs() {
        return timeout();
      },
      estimates() {
        return { pacingRate: rate * (1 - margin), srtt, rto: timeout() };
      },
    };
  },
};
