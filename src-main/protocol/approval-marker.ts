/**
 * The line an exec result starts with when a person (or the judge, or the fallback) answered its
 * approval: `[approval: allow-once by operator:ui]`. It is written into the tool result, so the
 * decision is part of the transcript (it survives reloads and reaches every device with the
 * output), and the model reads who let the command run. One format, written by the exec tool and
 * read by clients.
 */
export type ApprovalMarkerDecision = 'allow-once' | 'allow-session' | 'allow-always' | 'deny';

export interface ApprovalMarker {
  decision: ApprovalMarkerDecision;
  /** `resolvedBy` of the resolution: `operator:<client>`, `chat:<channel>`, `expiry`… */
  by: string;
}

const decisions: readonly ApprovalMarkerDecision[] = ['allow-once', 'allow-session', 'allow-always', 'deny'];
const prefix = '[approval: ';

export function formatApprovalMarker(marker: ApprovalMarker): string {
  return `${prefix}${marker.decision} by ${marker.by.replace(/[\]\n]/g, ' ')}]`;
}

/** The marker on the first line of a tool result, and the output after it; no marker: the output as is. */
export function readApprovalMarker(output: string): { marker?: ApprovalMarker; output: string } {
  if (!output.startsWith(prefix)) return { output };
  const end = output.indexOf(']\n') >= 0 ? output.indexOf(']\n') : output.endsWith(']') ? output.length - 1 : -1;
  if (end < 0) return { output };
  const body = output.slice(prefix.length, end);
  const space = body.indexOf(' by ');
  const decision = body.slice(0, space) as ApprovalMarkerDecision;
  if (space < 0 || !decisions.includes(decision)) return { output };
  return { marker: { decision, by: body.slice(space + 4) }, output: output.slice(end + 2) };
}
