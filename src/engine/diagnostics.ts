/** A problem found in a spec or its handlers, kept structured from where it is found to where it is shown. */
export interface Diagnostic {
  file: string;
  line: number;
  /** The lint rule (or `spec-yaml` for YAML syntax, `spec-schema` for the spec's own schema, `handler-load` for a module that throws). */
  rule: string;
  severity: 'error' | 'warning';
  message: string;
}

export const diagnostic = (at: { file: string; line: number }, rule: string, message: string, severity: Diagnostic['severity'] = 'error'): Diagnostic => ({
  file: at.file,
  line: at.line,
  rule,
  severity,
  message,
});

/** How a lint check reports a finding (lint.ts collects them, each once, sorted). */
export type Report = (at: { file: string; line: number }, rule: string, message: string, severity?: Diagnostic['severity']) => void;

/** `file:line: rule: message`, the one line format every command prints. */
export const formatDiagnostic = (d: Diagnostic): string => `${d.file}:${d.line}: ${d.rule}: ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`;

/** Thrown when a spec cannot be loaded or compiled; carries every problem found, not just the first. */
export class SpecError extends Error {
  constructor(readonly problems: Diagnostic[]) {
    super(problems.map(formatDiagnostic).join('\n'));
  }
}
