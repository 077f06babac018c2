import { BaseController, defineScheme, num } from './types.ts';

/** For the offset server: the same burst every `gap` milliseconds, whatever comes back. */
class ConstantBurst extends BaseController {
  constructor(
    private readonly size: number,
    private readonly gap: number,
  ) {
    super();
  }
  windowSize(): number {
    return this.size;
  }
  burstSize(): number {
    return this.size;
  }
  /** Rounds start no closer than one gap apart: size requests per gap. */
  pacingRate(): number {
    return (this.size * 1000) / this.gap;
  }
  timeoutMs(): number {
    return this.gap;
  }
}

export const constantBurst = defineScheme({
  id: 'constant-burst',
  title: 'Constant burst',
  doc: 'A fixed-size burst of requests every fixed gap.',
  mode: 'burst',
  params: [num('size', 'requests', 1, 200, 1, 10, 'Requests in each burst'), num('gap', 'ms', 1, 2000, 1, 40, 'Time from one burst to the next')],
  create: (p) => new ConstantBurst(p.size, p.gap),
});
