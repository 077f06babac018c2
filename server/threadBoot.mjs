// Worker threads do not inherit the TypeScript loader the relay runs under: register it, then load the
// module. The compiled relay (npm run build) has no TypeScript: there the module is its .js beside it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';

const module = workerData.module;
const compiled = module.replace(/\.ts$/, '.js');
if (module.endsWith('.ts') && !existsSync(fileURLToPath(module)) && existsSync(fileURLToPath(compiled))) await import(compiled);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(module);
}
