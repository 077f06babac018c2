import { benchModel } from './model.ts';
import { benchRelay } from './relay.ts';
import { benchBrowser } from './browser.ts';
import { benchFeedback } from './browserFeedback.ts';
import { benchLabs } from './labs.ts';
import { benchLink } from './link.ts';
import { benchLive } from './live.ts';
import { benchUserController } from './userController.ts';

/** Prints every benchmark's figures; nothing passes or fails here. */
const suites: [string, () => Record<string, string> | Promise<Record<string, string>>][] = [
  ['model', benchModel],
  ['relay', benchRelay],
  ['browser', benchBrowser],
  ['feedback', benchFeedback],
  ['labs', benchLabs],
  ['link', benchLink],
  ['live', benchLive],
  ['user', benchUserController],
];

const only = process.argv[2];
for (const [name, run] of suites) {
  if (only && only !== name) continue;
  console.log(`\n== ${name}`);
  const figures = await run();
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(48)} ${v}`);
}
