import { resolve } from 'node:path';
import { build } from 'vite';
import { summarize } from '../shared/metrics/summary.ts';
import { MATRIX_SEEDS, matrixRuns } from '../shared/scenarios/matrix.ts';
import { MATRIX } from '../shared/scenarios/presets.ts';
import { runScenario } from '../shared/scenarios/run.ts';
import { ROOT } from '../server/relay.ts';
import { loadTrace } from '../server/traces.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import { testRelay } from '../tests/helpers/relay.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function matrixHeadless(): number {
  const t0 = performance.now();
  for (const row of MATRIX) for (const spec of matrixRuns(row, 'reno')) summarize(runScenario(spec, loadTrace));
  return performance.now() - t0;
}

export async function benchLabs(): Promise<Record<string, string>> {
  const matrix = [matrixHeadless(), matrixHeadless(), matrixHeadless()];
  const figures: Record<string, string> = {
    [`full reliable-transport matrix, headless (21 rows × ${MATRIX_SEEDS} seeds, Reno)`]: `median ${median(matrix).toFixed(0)} ms of 3 (first, cold: ${matrix[0].toFixed(0)} ms)`,
  };
  await build({ configFile: resolve(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  const relay = await testRelay();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      await page.goto(`${relay.url}/?view=contest-lab&sw=${encodeURIComponent('fixed:w:2..32+2')}`);
      await page.locator('[data-action="sweep"]').click();
      await page.waitForFunction(() => /16 \/ 16 runs in/.test(document.querySelector('[data-testid="sweep-progress"]')?.textContent ?? ''), null, { timeout: 30_000 });
      const text = await page.locator('[data-testid="sweep-progress"]').innerText();
      times.push(Number(/in ([\d.]+) s/.exec(text)![1]) * 1000);
    }
    figures['16-point sweep on the contest trace, in Chromium'] = `median ${median(times).toFixed(0)} ms (runs ${times.map((t) => t.toFixed(0)).join(', ')}; each in a fresh page, workers cold)`;
  } finally {
    await browser.close();
    await relay.close();
  }
  return figures;
}
