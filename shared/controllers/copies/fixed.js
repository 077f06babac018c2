// Fixed window: keeps the same number of packets in flight whatever happens.
export default {
  title: 'Fixed window (my copy)',
  params: [{ name: 'w', unit: 'packets', min: 1, max: 1000, step: 1, default: 16, doc: 'Packets in flight' }],
  create(params) {
    return {
      windowSize() {
        return params.w;
      },
      onAck(ack) {},
      onTimeout(now) {},
    };
  },
};
