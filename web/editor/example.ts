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
