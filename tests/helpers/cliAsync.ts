import { spawn } from 'node:child_process';
import { ROOT, tsxArgs } from './cli.ts';

/** Runs a command-line tool of the project to completion without blocking, so several can run at once. */
export function runCliAsync(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, tsxArgs(script, args), { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
