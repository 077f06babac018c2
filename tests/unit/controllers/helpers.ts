import { findScheme } from '../../../shared/controllers/registry.ts';
import { withDefaults, type Controller, type ParamValues } from '../../../shared/controllers/types.ts';

export function make(id: string, params: ParamValues = {}): Controller {
  const s = findScheme(id)!;
  return s.create(withDefaults(s.params, params));
}
