import { describe, expect, it } from 'vitest';
import { hookCallPlace, hookSession, type HookClient } from './hook-call';

const CLIENT: HookClient = { agent: 'claude-code', label: 'Claude Code', transcripts: '/.claude/projects/' };

describe('hookSession', () => {
  it('is the CLI session of the owner, titled by its directory', () => {
    expect(hookSession(CLIENT, 'u1', { session_id: 's1', cwd: '/home/ann/app' })).toEqual({
      owner: 'u1',
      source: 'hook',
      agent: 'claude-code',
      externalId: 's1',
      title: '/home/ann/app',
    });
  });

  it('is titled after the CLI and the session id when the call names no directory', () => {
    expect(hookSession(CLIENT, 'u1', { session_id: 's1' }).title).toBe('Claude Code session s1');
  });
});

describe('hookCallPlace', () => {
  it('takes the workspace from cwd and the home from where the CLI keeps its transcripts', () => {
    expect(
      hookCallPlace(CLIENT, {
        session_id: 's1',
        cwd: '/home/ann/app',
        transcript_path: '/home/ann/.claude/projects/-home-ann-app/s1.jsonl',
      }),
    ).toEqual({ workspace: '/home/ann/app', homeDir: '/home/ann' });
  });

  it.each([
    ['no transcript', undefined],
    ['a transcript that is not a string', 42],
    ['a relative transcript path', 'ann/.claude/projects/x.jsonl'],
    ["another CLI's transcript", '/home/ann/.gemini/tmp/x.json'],
    ['the marker at the root (no home before it)', '/.claude/projects/x.jsonl'],
  ])('names no home for %s', (_what, transcript_path) => {
    expect(hookCallPlace(CLIENT, { session_id: 's1', transcript_path })).toEqual({});
  });
});
