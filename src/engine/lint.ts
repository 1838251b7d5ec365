import { loadHandlerModules } from './compile.ts';
import { loadSpec, SpecError } from './spec.ts';

export interface Finding {
  file: string;
  line: number;
  rule: string;
  severity: 'error' | 'warning';
  message: string;
}

/** `file:line: rule: message` lines from the loader become findings. */
function fromLine(line: string): Finding {
  const m = /^(.*?):(\d+): ([\w-]+): (.*)$/.exec(line);
  return m ? { file: m[1], line: Number(m[2]), rule: m[3], severity: 'error', message: m[4] } : { file: '', line: 0, rule: 'spec', severity: 'error', message: line };
}

export async function lintSpec(specDir: string): Promise<Finding[]> {
  let spec;
  try {
    spec = loadSpec(specDir);
  } catch (e) {
    if (e instanceof SpecError) return e.problems.map(fromLine);
    throw e;
  }
  const { problems } = await loadHandlerModules(spec);
  return problems.map(fromLine);
}
