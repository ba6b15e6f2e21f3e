#!/usr/bin/env node
// The first part of `npm test`, in lanes side by side: the static checks, one lane per core
// (`npm run lint`, ESLint then knip, in one; `npm run typecheck` then `npm run format:check` in the
// other: each a single-threaded process, about as long as the other lane), and the e2e suite's
// provisioning (`npm run test:provision`: Chromium from Debian's packages and the pinned coding
// CLIs from npm when missing), which waits on the network and the disk more than on a CPU. Each
// step's output is printed whole when it ends, under its name; every step runs, and the exit code
// is 1 when any failed. Plain Node, no deps.
import { spawn } from 'node:child_process';

const LANES = [['lint'], ['typecheck', 'format:check'], ['test:provision']];

function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const done = (code, why) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString('utf8').trimEnd();
      const verdict = code === 0 ? 'passed' : `FAILED (${why})`;
      process.stdout.write(`\n── npm run ${script}: ${verdict} in ${seconds} s\n${text ? `${text}\n` : ''}`);
      resolve(code === 0);
    };
    child.on('error', (error) => done(1, error.message));
    child.on('close', (code, signal) => done(code ?? 1, signal ? `signal ${signal}` : `exit code ${code}`));
  });
}

const failed = [];
await Promise.all(
  LANES.map(async (lane) => {
    for (const script of lane) if (!(await run(script))) failed.push(script);
  }),
);
if (failed.length > 0) {
  console.error(`\nchecks: ${failed.join(', ')} failed`);
  process.exit(1);
}
console.log(`\nchecks: ${LANES.flat().join(', ')} passed`);
