import type { ConfigGate, TriggerContext } from './types.js';

/** Labels are unique per repository regardless of case, so the comparison ignores case too. */
export function sameLabel(name: string, configured: string): boolean {
  return name.toLowerCase() === configured.toLowerCase();
}

/** Whether a (valid) config lets the gated job in. */
export function configGateOpen(gate: ConfigGate, ctx: Pick<TriggerContext, 'label' | 'reviewOnRequestChanges'>): boolean {
  return 'label' in gate ? sameLabel(gate.label, ctx.label) : ctx.reviewOnRequestChanges === true;
}
