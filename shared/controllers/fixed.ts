import { BaseController, defineScheme, num } from './types.ts';

class FixedWindow extends BaseController {
  constructor(private readonly w: number) {
    super();
  }
  windowSize(): number {
    return this.w;
  }
}

export const fixed = defineScheme({
  id: 'fixed',
  title: 'Fixed window',
  doc: 'Keeps the same number of packets in flight whatever happens.',
  mode: 'window',
  params: [num('w', 'packets', 1, 1000, 1, 16, 'Packets in flight')],
  create: (p) => new FixedWindow(p.w),
});
