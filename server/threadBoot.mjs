// Worker threads do not inherit the TypeScript loader the relay runs under: register it, then load the module.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
