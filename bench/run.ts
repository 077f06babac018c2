// A module (it imports nothing statically), for the top-level await below.
export {};

/**
 * Prints every benchmark's figures; nothing passes or fails here. Each suite's modules load only when it
 * runs, so that the model's figures are not taken beside the browser suites' 60 MB of heap (a major
 * collection of it costs each run milliseconds the model does not).
 */
const suites: [string, () => Promise<Record<string, string>>][] = [
  ['model', async () => (await import('./model.ts')).benchModel()],
  ['relay', async () => (await import('./relay.ts')).benchRelay()],
  ['records', async () => (await import('./records.ts')).benchRecords()],
  ['contest', async () => (await import('./contest.ts')).benchContest()],
  ['relay-modes', async () => (await import('./relayModes.ts')).benchRelayModes()],
  ['amplification', async () => (await import('./relayAmplification.ts')).benchAmplification()],
  ['browser', async () => (await import('./browser.ts')).benchBrowser()],
  ['feedback', async () => (await import('./browserFeedback.ts')).benchFeedback()],
  ['labs', async () => (await import('./labs.ts')).benchLabs()],
  ['link', async () => (await import('./link.ts')).benchLink()],
  ['live', async () => (await import('./live.ts')).benchLive()],
  ['user', async () => (await import('./userController.ts')).benchUserController()],
];

const only = process.argv[2];
for (const [name, run] of suites) {
  if (only && only !== name) continue;
  console.log(`\n== ${name}`);
  const figures = await run();
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(48)} ${v}`);
}
