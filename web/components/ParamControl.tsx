import { memo, useEffect, useId, useState } from 'react';
import type { NumberParam, ParamSpec } from '../../shared/controllers/types.ts';
import { checkField } from '../state/codec.ts';
import { sliderScale } from './sliderScale.ts';

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
  return (
    <div className="param" title={spec.doc}>
      <label htmlFor={id}>
        {spec.name} <output>{String(value)}</output> <span className="unit">{spec.unit}</span>
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
          aria-valuetext={`${value} ${spec.unit}`}
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

/**
 * The exact value, typed. It is checked as a link's value is (checkField), so what the box applies a
 * shared link reproduces: a value outside the range, or a fraction of a whole-number parameter, is refused
 * with the reason and not applied; leaving the box then shows the value in force again, beside the reason,
 * until that value changes (the slider moved, another entry of the history): the reason is then of no value shown.
 */
export function NumberBox({ spec, value, onChange, name, label }: { spec: NumberParam; value: number; onChange(v: number): void; name: string; label?: string }) {
  const [text, setText] = useState(String(value));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setText(String(value));
    setProblem(null);
  }, [value]);
  const type = (raw: string) => {
    setText(raw);
    const r = checkField(spec, raw.trim());
    // the reason stays beside the box after it shows the kept value again: it says which value that is
    setProblem('error' in r ? `${r.error}; ${spec.name} stays ${value}` : null);
    if ('value' in r) onChange(Number(r.value));
  };
  return (
    <>
      <input
        className="number"
        type="text"
        inputMode="decimal"
        value={text}
        onChange={(e) => type(e.target.value)}
        onBlur={() => setText(String(value))}
        aria-label={label ?? `${spec.name}, exact value${spec.unit ? ` in ${spec.unit}` : ''}`}
        // what the box shows is invalid only while it is not the value in force
        aria-invalid={problem !== null && text !== String(value)}
        data-number={name}
      />
      {problem && (
        <span className="error" role="alert">
          {problem}
        </span>
      )}
    </>
  );
}
