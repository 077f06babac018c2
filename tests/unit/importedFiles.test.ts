import { describe, expect, it } from 'vitest';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { encodeMahimahiLog, opportunitiesOver } from '../../shared/formats/mahimahiLog.ts';
import { encodePcap } from '../../shared/formats/pcap.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { DROP, K } from '../../shared/log/kinds.ts';
import { summarizeLog } from '../../shared/metrics/logSummary.ts';
import { contest, flow } from '../../shared/scenarios/presets.ts';
import { importedCsv } from '../../web/export/importFile.ts';
import { shortContest } from '../helpers/formatRuns.ts';

const BESIDE = contest('Verizon-LTE-short', [flow('bbr')]);

describe('a run imported from a file that holds one end of it', () => {
  it('a log of the sender alone (a pcap, a qlog) has no throughput, delay or score: unknown, not zero', () => {
    const log = new EventLog(8);
    log.push(0, K.send, 0, 0, 1500, 1, 10);
    log.push(50, K.ack, 0, 0, 1500, 50, 11);
    const s = summarizeLog(log, BESIDE, 100, null);
    expect([s.all.throughputMbps, s.all.packetsDelivered, s.all.delay95, s.all.score, s.all.drops, s.flows[0].link.throughputMbps]).toEqual([NaN, NaN, NaN, NaN, NaN, NaN]);
    // a run whose every packet was dropped at the bottleneck did deliver nothing: its throughput is 0
    log.push(1, K.drop, 0, 1, 1500, DROP.queue, 0);
    expect(summarizeLog(log, BESIDE, 100, null).all.throughputMbps).toBe(0);
  });

  it('is named by its file on its side, not by the other side’s scheme', async () => {
    const run = shortContest();
    const pcap = await importedCsv(new File([new Uint8Array(encodePcap(run))], 'run.pcap'), BESIDE);
    expect(parseTraceCsv(pcap.csv).spec).toMatchObject({ flows: [{ scheme: 'pcap capture' }] });
    const spec = run.spec as typeof BESIDE;
    const linkLog = encodeMahimahiLog(run, opportunitiesOver([1, 2, 3], spec.durationMs, false));
    const mm = await importedCsv(new File([linkLog], 'run.log'), BESIDE);
    expect([mm.format, (parseTraceCsv(mm.csv).spec as typeof BESIDE).flows[0].scheme]).toEqual(['mahimahi-log', 'Mahimahi link log']);
  });
});
