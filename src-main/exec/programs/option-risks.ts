// Risk builders shared by the program tables: "this option runs code", "its value is a file written"…
import type { OptionRisk } from './option-grammar.js';
import { isOutside, type RiskKind, risk, writeRisk } from './program-knowledge.js';

/** The option always carries this risk; `detail` says what it does. */
export function always(kind: RiskKind, detail: string): OptionRisk {
  return (use) => risk(kind, use.spelled, `${use.name} ${detail}`);
}

export const runsCode = (detail: string): OptionRisk => always('runs-code', detail);
export const network = (detail: string): OptionRisk => always('network', detail);
export const publishes = (detail: string): OptionRisk => always('publishes', detail);

/** The option's value is a file or folder the program writes: fine inside the workspace, not elsewhere. */
export function writesValue(what = 'writes'): OptionRisk {
  return (use, context) => (use.value ? writeRisk(use.value, context, use.spelled, `${use.name} ${what}`) : undefined);
}

/** The option points the program at another folder whose configuration or code it then runs. */
export function folderOutside(detail: string): OptionRisk {
  return (use, context) =>
    use.value && isOutside(use.value, context)
      ? risk('runs-code', use.spelled, `${use.name} ${use.value.text}: ${detail}`)
      : undefined;
}
