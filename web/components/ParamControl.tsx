import { useId } from 'react';
import type { ParamSpec } from '../../shared/controllers/types.ts';

/** One labelled control generated from a parameter's schema: a slider for numbers, a menu for choices. */
export function ParamControl({ spec, value, onChange, prefix }: { spec: ParamSpec; value: number | string; onChange(v: number | string): void; prefix: string }) {
  const id = useId();
  if (spec.kind === 'choice') {
    return (
      <div className="param" title={spec.doc}>
        <label htmlFor={id}>{spec.name}</label>
        <select id={id} value={String(value)} onChange={(e) => onChange(e.target.value)} data-param={`${prefix}${spec.name}`}>
          {spec.choices.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        <small>{spec.doc}</small>
      </div>
    );
  }
  // Ranges spanning orders of magnitude slide on a log scale, so small values stay reachable.
  const logScale = spec.min > 0 && spec.max / spec.min >= 1000;
  const toSlider = (v: number) => (logScale ? Math.log(v) : v);
  const fromSlider = (s: number) => {
    const raw = logScale ? Math.exp(s) : s;
    const stepped = Math.round(raw / spec.step) * spec.step;
    return Math.min(spec.max, Math.max(spec.min, Number(stepped.toPrecision(10))));
  };
  return (
    <div className="param" title={spec.doc}>
      <label htmlFor={id}>
        {spec.name} <output>{String(value)}</output> <span className="unit">{spec.unit}</span>
      </label>
      <input
        id={id}
        type="range"
        min={toSlider(spec.min)}
        max={toSlider(spec.max)}
        step={logScale ? 'any' : spec.step}
        value={toSlider(Number(value))}
        onChange={(e) => onChange(fromSlider(Number(e.target.value)))}
        aria-valuetext={`${value} ${spec.unit}`}
        data-param={`${prefix}${spec.name}`}
      />
      <small>{spec.doc}</small>
    </div>
  );
}
