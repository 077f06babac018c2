// Constant burst, for the offset server: the same burst every `gap` milliseconds, whatever comes
// back. A baseline: it shows what a scheme that ignores the replies gets from the server.
export default {
  title: 'Constant burst (my copy)',
  mode: 'burst',
  params: [
    { name: 'size', unit: 'requests', min: 1, max: 200, step: 1, default: 10, doc: 'Requests in each burst' },
    { name: 'gap', unit: 'ms', min: 1, max: 2000, step: 1, default: 40, doc: 'Time from one burst to the next' },
  ],
  create(p) {
    return {
      windowSize() {
        return p.size;
      },
      burstSize() {
        return p.size;
      },
      // rounds start no closer than one gap apart: size requests per gap
      pacingRate() {
        return (p.size * 1000) / p.gap;
      },
      onAck(ack) {},
      onTimeout(now) {},
      // the next burst goes out after a gap, replies or not
      timeoutMs() {
        return p.gap;
      },
    };
  },
};
