#!/usr/bin/env node
// The command hook that asks Gatehouse before Gemini CLI (BeforeTool) or Codex CLI (PreToolUse,
// with --codex) runs a tool: reads the hook input on stdin, posts it to the URL given (Gatehouse's
// /api/hooks/gemini-cli or /api/hooks/codex) with the API token from GATEHOUSE_TOKEN, and prints
// Gatehouse's answer for the CLI. Plain Node, no dependencies.
//
//   node gatehouse-hook.mjs <gatehouse>/api/hooks/gemini-cli?deadline=45 [--timeout <seconds>]
//   node gatehouse-hook.mjs <gatehouse>/api/hooks/codex?deadline=45 --codex [--timeout <seconds>]
//
// Fails closed. Gemini CLI 0.61.0 and Codex 0.169.0 both run the call after a hook that exits 1,
// prints something that is not JSON, or outlives its `timeout`; exit 2 with a reason on stderr
// blocks it in both (Codex runs the call when that reason is empty, so there always is one). So
// every failure here (Gatehouse unreachable or slow, an error status, an answer that is not a
// plain allow or deny, no token, a crash) is exit 2, and this gives up before the CLI does: by
// default 5 s after the URL's `deadline` (the longest a person may take), else after 55 s.
import { pathToFileURL } from 'node:url';

export const BLOCK = 2;
const DEFAULT_TIMEOUT_S = 55;

/** Blocks the call: the reason goes to the model (Gemini CLI reads it from stderr on exit 2). */
function block(reason) {
  process.stderr.write(`Gatehouse: ${reason}\n`);
  process.exitCode = BLOCK;
}

/** `<url> [--codex] [--timeout <seconds>]`, checked; throws a reason. */
export function parseArgs(argv) {
  const [url, ...flags] = argv;
  if (!url) throw new Error('no Gatehouse URL given (usage: gatehouse-hook.mjs <url> [--codex] [--timeout <seconds>])');
  const codex = flags[0] === '--codex';
  const rest = codex ? flags.slice(1) : flags;
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`"${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`"${url}" is not an http(s) URL`);
  let timeoutS;
  if (rest.length > 0) {
    const seconds = Number(rest[1]);
    if (rest[0] !== '--timeout' || rest.length !== 2 || !Number.isFinite(seconds) || seconds <= 0) {
      throw new Error(`unexpected arguments "${rest.join(' ')}" (only --codex, then --timeout <seconds>)`);
    }
    timeoutS = seconds;
  } else {
    const deadline = Number(parsed.searchParams.get('deadline'));
    timeoutS = deadline > 0 ? deadline + 5 : DEFAULT_TIMEOUT_S;
  }
  return { url: parsed.href, timeoutS, codex };
}

/** Gatehouse's answer reduced to what Gemini CLI obeys; anything else is a reason to block. */
export function hookAnswer(body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('the answer is not an object');
  if (body.decision !== 'allow' && body.decision !== 'deny') {
    throw new Error(`the answer's decision is ${JSON.stringify(body.decision)}, not allow or deny`);
  }
  const reason = typeof body.reason === 'string' ? body.reason : '';
  const toolInput = body.hookSpecificOutput?.tool_input;
  if (toolInput !== undefined && (typeof toolInput !== 'object' || toolInput === null || Array.isArray(toolInput))) {
    throw new Error('the answer carries a tool_input that is not an object');
  }
  return { decision: body.decision, reason, ...(toolInput ? { hookSpecificOutput: { tool_input: toolInput } } : {}) };
}

/**
 * Gatehouse's answer for Codex reduced to what Codex obeys: the PreToolUse output with no decision
 * (an allow: Codex rejects an explicit one, and then runs the call) or a deny with its reason.
 * An empty object or any other shape is a reason to block, never an allow.
 */
export function codexAnswer(body) {
  const output =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? body.hookSpecificOutput : undefined;
  if (typeof output !== 'object' || output === null || Array.isArray(output) || output.hookEventName !== 'PreToolUse') {
    throw new Error('the answer is not a PreToolUse hook output');
  }
  if (output.permissionDecision === undefined) return { decision: 'allow' };
  if (output.permissionDecision !== 'deny') {
    throw new Error(`the answer's permissionDecision is ${JSON.stringify(output.permissionDecision)}, not deny`);
  }
  const reason = typeof output.permissionDecisionReason === 'string' ? output.permissionDecisionReason.trim() : '';
  return { decision: 'deny', reason: reason || 'Gatehouse denied the call' };
}

/** Prints the Codex answer: an allow on stdout (exit 0); a deny on stdout and, as exit 2 wants, on stderr. */
function printCodex(answer) {
  if (answer.decision === 'allow') {
    process.stdout.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse' } })}\n`);
    process.exitCode = 0;
    return;
  }
  const output = { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason };
  process.stdout.write(`${JSON.stringify({ hookSpecificOutput: output })}\n`);
  process.stderr.write(`${answer.reason}\n`);
  process.exitCode = BLOCK;
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The error message of a Gatehouse error response, when it has one. */
async function errorText(response) {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text);
    return body?.error?.message ?? body?.message ?? text.slice(0, 300);
  } catch {
    return text.slice(0, 300);
  }
}

export async function main(argv, env) {
  const { url, timeoutS, codex } = parseArgs(argv);
  const token = env.GATEHOUSE_TOKEN;
  if (!token) throw new Error('GATEHOUSE_TOKEN is not set (the CLI must pass it to its hooks)');
  const input = await readStdin();
  let response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: input,
      signal: AbortSignal.timeout(timeoutS * 1000),
    });
  } catch (error) {
    const cause =
      error?.name === 'TimeoutError' ? `no answer within ${timeoutS} s` : (error?.cause?.message ?? error?.message);
    throw new Error(`Gatehouse at ${url} is unreachable (${cause}); nothing runs without its decision`, {
      cause: error,
    });
  }
  if (!response.ok) throw new Error(`Gatehouse answered ${response.status}: ${await errorText(response)}`);
  let body;
  try {
    body = JSON.parse(await response.text());
  } catch {
    throw new Error('Gatehouse answered something that is not JSON');
  }
  if (codex) return printCodex(codexAnswer(body));
  const answer = hookAnswer(body);
  process.stdout.write(`${JSON.stringify(answer)}\n`);
  process.exitCode = 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Until an answer is printed, any way out of this process blocks the call.
  process.exitCode = BLOCK;
  process.on('uncaughtException', (error) => {
    block(error?.message ?? String(error));
    process.exit(BLOCK);
  });
  main(process.argv.slice(2), process.env).catch((error) => block(error?.message ?? String(error)));
}
