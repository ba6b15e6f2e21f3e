#!/usr/bin/env node
// Makes sure Debian's Chromium is at /usr/bin/chromium before Playwright runs, because this
// project's machines cannot download Playwright's own browser builds. Plain Node, no deps.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';

function fail(message) {
  console.error(`ensure-chromium: ${message}`);
  process.exit(1);
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

// Streams the child's output straight through so a slow apt run shows its progress.
function run(argv) {
  console.log(`ensure-chromium: $ ${argv.join(' ')}`);
  const result = spawnSync(argv[0], argv.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) fail(`could not start ${argv[0]}: ${result.error.message}`);
  if (result.status !== 0) {
    fail(`"${argv.join(' ')}" exited with ${result.status ?? `signal ${result.signal}`}`);
  }
}

if (existsSync(CHROMIUM)) process.exit(0);

if (process.platform !== 'linux' || !hasCommand('apt-get')) {
  fail(`${CHROMIUM} is missing and apt-get is not available; install Chromium so that ${CHROMIUM} exists.`);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let prefix = [];
if (!isRoot) {
  if (!hasCommand('sudo')) fail(`${CHROMIUM} is missing; installing it needs root, and sudo is not available.`);
  prefix = ['sudo', '-n'];
}

console.log(`ensure-chromium: ${CHROMIUM} is missing; installing Debian's chromium package.`);
run([...prefix, 'apt-get', 'update']);
run([...prefix, 'apt-get', 'install', '-y', 'chromium']);

if (!existsSync(CHROMIUM)) fail(`apt-get install chromium finished but ${CHROMIUM} still does not exist.`);
const version = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' });
console.log(`ensure-chromium: installed ${(version.stdout || '').trim() || CHROMIUM}`);
