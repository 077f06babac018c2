import { describe, expect, it } from 'vitest';
import { pageCatalogue } from '../../../web/app/catalogue.ts';
import { DEFAULT_EXPERIMENT, decodeExperiment, encodeExperiment } from '../../../web/state/experiment.ts';

describe('a discipline’s setting in a link without that discipline', () => {
  it('is named as the command line names it, and left out of the experiment', () => {
    const { value, errors } = decodeExperiment('a=aimd&b=bdp&link.codelTarget=20', pageCatalogue());
    expect(errors).toEqual(["the link's codelTarget would change nothing: it is a setting of codel, and the queue's discipline is drop-tail"]);
    expect(value.link).toEqual({});
  });

  it('names each setting of another discipline than the one given, and keeps the discipline’s own', () => {
    const { value, errors } = decodeExperiment('link.discipline=codel&link.codelTarget=20&link.pieTarget=30&link.redMin=5', pageCatalogue());
    expect(errors).toEqual([
      "the link's pieTarget would change nothing: it is a setting of pie, and the queue's discipline is codel",
      "the link's redMin would change nothing: it is a setting of red, and the queue's discipline is codel",
    ]);
    expect(value.link).toEqual({ discipline: 'codel', codelTarget: 20 });
  });

  it('stays out of the address after the discipline changes, so that the page’s own link opens without a notice', () => {
    const e = { ...DEFAULT_EXPERIMENT, link: { discipline: 'drop-tail', codelTarget: 20 } };
    const query = encodeExperiment(e, pageCatalogue());
    expect(query).toBe('a=aimd&b=bdp&link.discipline=drop-tail');
    expect(decodeExperiment(query, pageCatalogue()).errors).toEqual([]);
  });
});
