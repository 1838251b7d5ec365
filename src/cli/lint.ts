import { formatDiagnostic } from '../engine/diagnostics.ts';
import { lintSpec } from '../engine/lint.ts';

export async function lintCommand(o: { spec: string; format: string }): Promise<void> {
  const findings = await lintSpec(o.spec);
  if (o.format === 'json') console.log(JSON.stringify(findings, null, 2));
  else for (const f of findings) console.log(formatDiagnostic(f));
  const errors = findings.filter((f) => f.severity === 'error').length;
  if (o.format !== 'json') console.log(`${errors} error(s), ${findings.length - errors} warning(s)`);
  process.exitCode = errors ? 1 : 0;
}
