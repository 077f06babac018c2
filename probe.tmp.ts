import WebSocket from 'ws';
import { findScheme } from './shared/controllers/registry.ts';
import { withDefaults } from './shared/controllers/types.ts';
import { summarize } from './shared/metrics/summary.ts';
import { flow, offsetServer } from './shared/scenarios/presets.ts';
import { runScenario } from './shared/scenarios/run.ts';
import { nodeClock } from './server/clock.ts';
import { fetchOverUdp } from './server/liveFetch.ts';
import type { WebSocketLike } from './web/live/bridgeSession.ts';
import { timedFetch } from './web/live/timedFetch.ts';
const [url, udp, id, what] = process.argv.slice(2);
const scheme = findScheme(id)!;
const params = withDefaults(scheme.params);
if (what === 'cli') { const o = await fetchOverUdp('127.0.0.1', Number(udp), { scheme, params, id: 'p@x', giveUpMs: 60000 }); console.log('cli', o.result.serverTime, o.result.penalty, o.result.squishedReplies); }
if (what === 'timed') { const ws = new WebSocket(`${url.replace('http','ws')}/bridge?target=127.0.0.1:${udp}&timed=1`, { origin: url }); const o = await timedFetch(ws as unknown as WebSocketLike, nodeClock(), { scheme, params, id: 'p@x', giveUpMs: 60000 }).done; const l=[...o.lateness].sort((a,b)=>a-b); console.log('timed', o.result.serverTime, 'elapsed', o.result.elapsed.toFixed(0), 'log', o.log.columns.t[0].toFixed(1), o.log.columns.t[o.log.length-1].toFixed(1), o.result.penalty, o.result.squishedReplies, 'late p50', l[l.length>>1].toFixed(3), 'p99', l[Math.floor(l.length*.99)].toFixed(3), 'overdue', o.overdue, 'offset', o.offsetMs.toFixed(2)); }
if (what === 'sim') { const s = summarize(runScenario(offsetServer(false, [flow(id, {}, 0, 1_000_000)]), () => null as never)).flows[0].offset!; console.log('sim', s.timeMs, s.penalty, s.squishes); }
process.exit(0);
