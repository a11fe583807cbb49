import { readFile } from 'node:fs/promises';
import { type ExecPolicy, execPolicySchema } from './exec-policy.js';

/** Reads a policy JSON file; errors name the file and what is wrong with it. */
export async function loadPolicyFile(path: string): Promise<ExecPolicy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read policy file ${path}: ${code === 'ENOENT' ? 'no such file' : String(error)}`);
  }
  return parsePolicyText(text, path);
}

export function parsePolicyText(text: string, path: string): ExecPolicy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`policy file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = execPolicySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(root)';
    throw new Error(`policy file ${path} is invalid at ${where}: ${issue?.message ?? 'unknown problem'}`);
  }
  return parsed.data;
}
