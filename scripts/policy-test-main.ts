// What `npm run policy:test` does (scripts/policy-test.ts is its command line): runs the tests a
// policy file carries and returns the exit code. 0 every test passes (or there are none), 1 a test
// fails, 2 the file cannot be read, parsed or validated, or the arguments are wrong.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describeTestResult, importPolicy, isPolicyValidationError, runPolicyTests } from '../lib/policy/index';

/** A policy file larger than this is not one (a policy with its tests is well below it). */
const MAX_FILE_BYTES = 10_000_000;
const USAGE = 'usage: npm run policy:test -- <policy.json> [--workspace <dir>]';

class UsageError extends Error {}

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

export async function policyTestMain(argv: readonly string[], io: Io, cwd = process.cwd()): Promise<number> {
  let args: { file: string; workspace: string };
  try {
    args = parseArgs(argv, cwd);
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { file, workspace } = args;
  let doc: unknown;
  try {
    const size = (await stat(file)).size;
    if (size > MAX_FILE_BYTES) throw new Error(`${size} bytes is larger than a policy file may be (${MAX_FILE_BYTES})`);
    const text = await readFile(file, 'utf8');
    try {
      doc = JSON.parse(text);
    } catch (error) {
      io.err(`${file} is not valid JSON: ${(error as Error).message}`);
      return 2;
    }
  } catch (error) {
    io.err(`Cannot read ${file}: ${(error as Error).message}`);
    return 2;
  }
  let report;
  try {
    report = runPolicyTests(importPolicy(doc), undefined, { workspaceRoot: workspace });
  } catch (error) {
    if (!isPolicyValidationError(error)) throw error;
    io.err(`${file} is not a valid policy:`);
    for (const issue of error.issues.slice(0, 20)) io.err(`  ${issue.path || '(document)'}: ${issue.message}`);
    return 2;
  }
  for (const result of report.results) {
    io.out(`${result.pass ? 'PASS' : 'FAIL'} ${describeTestResult(result)}`);
    if (!result.pass) io.out(`     ${result.explanation}`);
  }
  const total = report.results.length;
  io.out(
    total === 0
      ? `${file}: no tests`
      : `${total} ${total === 1 ? 'test' : 'tests'}: ${report.passed} passed, ${report.failed} failed`,
  );
  return report.failed > 0 ? 1 : 0;
}

function parseArgs(argv: readonly string[], cwd: string): { file: string; workspace: string } {
  const files: string[] = [];
  let workspace = cwd;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--workspace') {
      const dir = argv[++i];
      if (!dir) throw new UsageError('--workspace needs a directory');
      workspace = path.resolve(cwd, dir);
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`Unknown option ${arg}`);
    } else {
      files.push(arg);
    }
  }
  if (files.length !== 1)
    throw new UsageError(files.length === 0 ? 'Name the policy file to test' : 'Name one policy file');
  return { file: path.resolve(cwd, files[0]!), workspace };
}
