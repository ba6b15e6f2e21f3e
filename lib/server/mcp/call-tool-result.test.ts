// checkCallToolResult: the shortcut for text-only results gives exactly what the SDK's schema
// gives, and takes nothing the schema would change or refuse.
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { checkCallToolResult, isPlainTextResult } from './call-tool-result';

const text = (t: string) => ({ type: 'text', text: t });

const common: unknown[] = [
  { content: [] },
  { content: [text('hi')] },
  { content: [text(''), text('two')], isError: false },
  { content: [text('failed')], isError: true },
  JSON.parse('{"isError":true,"content":[{"text":"order","type":"text"}]}'),
];

const others: unknown[] = [
  {},
  { isError: true },
  { content: [text('x')], _meta: { a: 1 } },
  { content: [text('x')], structuredContent: { a: 1 } },
  { content: [text('x')], extra: 1 },
  { content: [text('x')], isError: 'yes' },
  { content: [{ ...text('x'), annotations: { priority: 0.5 } }] },
  { content: [{ ...text('x'), extra: 1 }] },
  { content: [{ type: 'text', text: 5 }] },
  { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] },
  { content: [{ type: 'text' }] },
  // eslint-disable-next-line no-sparse-arrays
  { content: [text('x'), , text('y')] },
  { content: 'text' },
  { content: null },
  JSON.parse('{"content":[{"__proto__":{"type":"text"},"text":"x"}]}'),
  JSON.parse('{"content":[],"__proto__":{"isError":true}}'),
  Object.assign(Object.create({ inherited: 1 }), { content: [] }),
  { content: [Object.assign(Object.create({ type: 'text' }), { text: 'x', type: 'text' })] },
  null,
  [],
  'result',
];

const schema = (value: unknown) => {
  const parsed = CallToolResultSchema.safeParse(value);
  return parsed.success ? { success: true, data: parsed.data } : { success: false };
};
const ours = (value: unknown) => {
  const checked = checkCallToolResult(value);
  return checked.success ? { success: true, data: checked.data } : { success: false };
};

describe('checkCallToolResult', () => {
  it.each(common.map((value) => [JSON.stringify(value), value]))('takes the common shape as it is: %s', (_, value) => {
    expect(isPlainTextResult(value)).toBe(true);
    expect(ours(value)).toEqual(schema(value));
    expect(checkCallToolResult(value)).toMatchObject({ success: true, data: value });
  });

  it.each(others.map((value, i) => [i, value]))(
    'leaves anything else to the schema, with its outcome (#%s)',
    (_, value) => {
      expect(isPlainTextResult(value)).toBe(false);
      expect(ours(value)).toEqual(schema(value));
    },
  );

  it("a refusal carries the schema's message", () => {
    const checked = checkCallToolResult({ content: [{ type: 'text', text: 5 }] });
    expect(checked.success).toBe(false);
    expect(!checked.success && checked.message).toBe(
      CallToolResultSchema.safeParse({ content: [{ type: 'text', text: 5 }] }).error!.message,
    );
  });
});
