import { describe, expect, it } from 'vitest';
import { tracesWithheld } from '../../shared/scenarios/presets.ts';
import { pageCatalogue } from '../../web/app/catalogue.ts';
import type { ChoiceParam } from '../../shared/controllers/types.ts';
import { decodeExperiment, encodeExperiment, experimentSchema } from '../../web/state/experiment.ts';
import { contestLab, decodeContestLab } from '../../web/state/labs.ts';
import { encodeView } from '../../web/state/view.ts';

describe('the bundled traces a class contest holds out', () => {
  it('are those reading any withheld file, a downlink or an uplink', () => {
    // what the relay names for its default held-out trace: the short trace and the drive it was cut from
    expect(tracesWithheld(['TMobile-LTE-driving.down', 'TMobile-LTE-short.down', 'TMobile-LTE-short.up'])).toEqual(['TMobile-LTE-short', 'TMobile-LTE-driving']);
    expect(tracesWithheld(['ATT-LTE-driving-2016.up'])).toEqual(['ATT-LTE-driving-2016']);
    expect(tracesWithheld(['mine.down', 'Verizon-LTE-short'])).toEqual([]);
    expect(tracesWithheld([])).toEqual([]);
  });
});

describe('the playground URL on a relay holding traces out', () => {
  const catalogue = { ...pageCatalogue(), heldOutTraces: ['TMobile-LTE-short', 'TMobile-LTE-driving'] };

  it('offers the other traces alone', () => {
    const trace = experimentSchema('contest', catalogue).find((f) => f.name === 'trace') as ChoiceParam;
    expect(trace.choices).toEqual(['Verizon-LTE-short', 'ATT-LTE-driving-2016', 'ATT-LTE-driving', 'TMobile-UMTS-driving', 'Verizon-EVDO-driving', 'rate']);
    expect(trace.default).toBe('Verizon-LTE-short');
  });

  it('names a held-out trace once, and opens on the default trace with the rest of the link as it came', () => {
    const { value, errors, ignored } = decodeExperiment('trace=TMobile-LTE-short&a=cubic&b=bdp', catalogue);
    expect(errors).toEqual(['the trace "TMobile-LTE-short" is held out for this relay\'s class contest, which never serves it']);
    expect(ignored).toEqual([]);
    expect(value).toMatchObject({ scenario: 'contest', trace: 'Verizon-LTE-short', a: { scheme: 'cubic', params: {} }, b: { scheme: 'bdp', params: {} } });
    expect(encodeExperiment(value, catalogue)).toBe('a=cubic&b=bdp');
  });

  it('reads the trace as any other where the relay holds none out', () => {
    expect(decodeExperiment('trace=TMobile-LTE-short', pageCatalogue())).toMatchObject({ errors: [], value: { trace: 'TMobile-LTE-short' } });
  });
});

describe('the contest lab URL on a relay holding traces out', () => {
  const catalogue = { ...pageCatalogue(), heldOutTraces: ['TMobile-LTE-short', 'TMobile-LTE-driving'] };

  it('offers the other traces alone', () => {
    const trace = contestLab(catalogue).find((f) => f.name === 'trace') as ChoiceParam;
    expect(trace.choices).toEqual(['Verizon-LTE-short', 'ATT-LTE-driving-2016', 'ATT-LTE-driving', 'TMobile-UMTS-driving', 'Verizon-EVDO-driving']);
    expect(trace.default).toBe('Verizon-LTE-short');
  });

  it('names a held-out trace as the playground does, and opens on the default trace with the sweeps as they came', () => {
    const { value, errors, ignored } = decodeContestLab('view=contest-lab&trace=TMobile-LTE-driving&sw=bdp:gain:1..3+0.25', catalogue);
    expect(errors).toEqual(['the trace "TMobile-LTE-driving" is held out for this relay\'s class contest, which never serves it']);
    expect(ignored).toEqual([]);
    expect(value).toEqual({ trace: 'Verizon-LTE-short', sw: [['bdp', 'gain', '1..3+0.25']] });
    expect(encodeView('contest-lab', contestLab(catalogue), value).toString()).toBe('view=contest-lab&sw=bdp%3Again%3A1..3%2B0.25');
  });

  it('names any other trace it does not have as before, and reads a held-out one where the relay holds none out', () => {
    expect(decodeContestLab('view=contest-lab&trace=Atlantis', catalogue).errors).toEqual([
      expect.stringMatching(/^trace must be one of Verizon-LTE-short, ATT-LTE-driving-2016, .* \(got "Atlantis"\)$/),
    ]);
    expect(decodeContestLab('view=contest-lab&trace=TMobile-LTE-short', pageCatalogue())).toMatchObject({ errors: [], value: { trace: 'TMobile-LTE-short' } });
  });
});
