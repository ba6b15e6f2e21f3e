import { describe, expect, it } from 'vitest';
import type { Risk } from '../../../policy';
import { riskFromAnnotations, type ToolAnnotationHints } from './risk';

describe('MCP risk from annotations: trusted servers only may lower it below write', () => {
  const rows: [string, ToolAnnotationHints | undefined, boolean, Risk][] = [
    ['no annotations means destructive (the spec default)', undefined, true, 'destructive'],
    ['no annotations, untrusted: destructive', undefined, false, 'destructive'],
    ['readOnlyHint on a trusted server: read_only', { readOnlyHint: true }, true, 'read_only'],
    ['readOnlyHint on an untrusted server: never below write', { readOnlyHint: true }, false, 'write'],
    ['readOnlyHint wins over destructiveHint', { readOnlyHint: true, destructiveHint: true }, true, 'read_only'],
    ['destructiveHint false: write', { destructiveHint: false }, true, 'write'],
    ['destructiveHint false, untrusted: write', { destructiveHint: false }, false, 'write'],
    [
      'destructiveHint true, untrusted: annotations may raise',
      { readOnlyHint: false, destructiveHint: true },
      false,
      'destructive',
    ],
  ];
  for (const [rule, annotations, trusted, risk] of rows) {
    it(rule, () => expect(riskFromAnnotations(annotations, trusted)).toBe(risk));
  }
});
