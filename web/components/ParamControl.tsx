import { memo, useId } from 'react';
import type { NumberParam, ParamSpec } from '../../shared/controllers/types.ts';
import { sliderScale } from './sliderScale.ts';
import { useTypedValue } from './useTypedValue.ts';

/**
 * One labelled control generated from a parameter's schema: a slider for numbers, a menu for choices.
 * Memoised: `onChange` (the parameter's name and new value) keeps its identity, so a change of another
 * control, or a new run, leaves this one alone.
 */
export const ParamControl = memo(function ParamControl({
  spec,
  value,
  onChange: onNamed,
  prefix,
}: {
  spec: ParamSpec;
  value: number | string;
  onChange(name: string, v: number | string): void;
  prefix: string;
}) {
  const id = useId();
  const onChange = (v: number | string) => onNamed(spec.name, v);
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
  const { toSlider, fromSlider, log } = sliderScale(spec);
  // a 0 that stands for a setting reads as its word ("auto"), not as 0 of the unit
  const word = spec.zero && Number(value) === 0 ? spec.zero : null;
  return (
    <div className="param" title={spec.doc}>
      <label htmlFor={id}>
        {spec.name} <output>{word ?? String(value)}</output> {!word && <span className="unit">{spec.unit}</span>}
      </label>
      <div className="slider-row">
        <input
          id={id}
          type="range"
          min={toSlider(spec.min)}
          max={toSlider(spec.max)}
          step={log ? 'any' : spec.step}
          value={toSlider(Number(value))}
          onChange={(e) => onChange(fromSlider(Number(e.target.value)))}
          aria-valuetext={word ?? `${value} ${spec.unit}`}
          // A log-scaled slider's own value is a position on its scale: assistive technology gets the parameter's.
          aria-valuenow={Number(value)}
          aria-valuemin={spec.min}
          aria-valuemax={spec.max}
          data-param={`${prefix}${spec.name}`}
          data-scale={log ? 'log' : 'linear'}
        />
        <NumberBox spec={spec} value={Number(value)} onChange={onChange} name={`${prefix}${spec.name}`} />
      </div>
      <small>{spec.doc}</small>
    </div>
  );
});

/** The exact value, typed (useTypedValue says how a typed value is taken or refused). */
export function NumberBox({ spec, value, onChange, name, label }: { spec: NumberParam; value: number; onChange(v: number): void; name: string; label?: string }) {
  const { problem, problemId, input } = useTypedValue(spec, value, onChange);
  return (
    <>
      <input className="number" type="text" inputMode="decimal" {...input} aria-label={label ?? `${spec.name}, exact value${spec.unit ? ` in ${spec.unit}` : ''}`} data-number={name} />
      {problem && (
        <span className="error" role="alert" id={problemId}>
          {problem}
        </span>
      )}
    </>
  );
}
