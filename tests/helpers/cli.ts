import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool, type ToolMain, type UsageFaults } from '../../server/cli/tool.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Node with tsx's loader, as `tsx SCRIPT` runs it, without the tsx command's own parent process: one Node
 * started per call instead of two.
 */
export const tsxArgs = (script: string, args: string[]) => ['--import', 'tsx', join(ROOT, script), ...args];

/** Runs a command-line tool of the project to completion in its own process. */
export function runCli(script: string, args: string[], timeout = 60_000) {
  const r = spawnSync(process.execPath, tsxArgs(script, args), { cwd: ROOT, encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs a tool's main in this process, through the same exit-code handling as its script, and collects what
 * it prints: the same outcome as runCli without starting a process per call.
 */
export async function runInProcess(tool: string, main: ToolMain, args: string[], usage: UsageFaults = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runTool(tool, main, args, { out: (t) => stdout.push(`${t}\n`), err: (t) => stderr.push(`${t}\n`) }, usage);
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}
