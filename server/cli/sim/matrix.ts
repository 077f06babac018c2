import type { SchemeCatalogue } from '../../../shared/controllers/registry.ts';
import type { ParamValues } from '../../../shared/controllers/types.ts';
import type { LinkModel } from '../../../shared/link/spec.ts';
import { matrixRuns, rowVerdict } from '../../../shared/scenarios/matrix.ts';
import { rowCaption } from '../../../shared/scenarios/matrixCaption.ts';
import { MATRIX, type MatrixRow } from '../../../shared/scenarios/presets.ts';
import type { Io } from '../tool.ts';
import { runOnce } from './oneRun.ts';

/** Seeds of a matrix run: each row runs over `count` seeds from `first`, on the `model` link. */
interface Seeds {
  first: number;
  count: number;
  model: LinkModel;
}

/** A row's verdict over its seeds, with the first seed's time, bytes on the wire and grade. */
function rowResult(row: MatrixRow, index: number, scheme: string, params: ParamValues, seeds: Seeds, catalogue: SchemeCatalogue) {
  const outs = matrixRuns(row, scheme, params, seeds.count, seeds.first, seeds.model).map((spec) => runOnce(spec, catalogue));
  const verdict = rowVerdict(outs.map((o) => o.summary));
  const r = outs[0].summary.flows[0].reliable!;
  return {
    row: index + 1,
    group: row.group,
    name: row.name,
    pass: verdict.passed === verdict.seeds,
    passed: verdict.passed,
    seeds: verdict.seeds,
    timedOut: verdict.timedOut,
    spread: verdict.spread,
    verdicts: verdict.verdicts,
    seconds: r.seconds,
    bytesOnWire: Math.round(r.overhead * (outs[0].spec.flows[0].bytes ?? 0)),
    grade: r.grade?.label ?? null,
    wallMs: outs.reduce((sum, o) => sum + o.wallMs, 0),
    caption: rowCaption(
      row,
      outs.map((o) => o.summary.flows[0].reliable!),
    ),
  };
}

/** Runs every row of the matrix over the seeds and prints the table; exit code 1 unless every row passed on every seed. */
export function runMatrix(scheme: string, params: ParamValues, seeds: Seeds, catalogue: SchemeCatalogue, json: boolean, io: Io): number {
  const table = MATRIX.map((row, i) => rowResult(row, i, scheme, params, seeds, catalogue));
  if (json) io.out(JSON.stringify({ scheme, linkModel: seeds.model, seeds: seeds.count, rows: table }));
  else {
    for (const t of table) {
      io.out(`${String(t.row).padStart(2)} ${t.group.padEnd(11)} ${`${t.passed}/${t.seeds}`.padStart(5)} pass ${t.spread.padEnd(15)} ${t.name}`);
      if (t.caption) io.out(`   ${t.caption}`);
    }
    io.out(`${table.filter((t) => t.pass).length}/${table.length} rows passed on all ${seeds.count} seeds (${seeds.model} link)`);
  }
  return table.every((t) => t.pass) ? 0 : 1;
}
