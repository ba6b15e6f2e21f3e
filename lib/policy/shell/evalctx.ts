// The places in a script's syntax where bash evaluates text a second time: arithmetic (`$((x))`,
// `$[x]`, `((x))`, `for ((...))`, `[[ x -eq y ]]`, subscripts, `${x:offset:length}`), a prompt
// string (`${x@P}`), a variable name (`${!x}`, `[[ -v name ]]`, `{fd}>` redirections), and
// assignments to variables with the integer attribute. Each hands the text to ScriptFacts, which
// turns what it cannot vouch for into an issue (an opaque part).
import type {
  ArithmeticFor,
  Assignment,
  Command,
  For,
  ParameterExpansionPart,
  Select,
  SyntaxNode,
  TestExpression,
  Word,
} from 'unbash';
import type { ScriptFacts } from './facts';
import { arithmeticTemplate, isName, Level, literalTemplate, templateOf, type Template } from './template';

const ARITH_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/** Checks the contexts a node opens (before its children are visited). */
export function inspectNode(node: SyntaxNode, facts: ScriptFacts, textOf: (node: SyntaxNode) => string): void {
  switch (node.type) {
    case 'ParameterExpansion':
      parameterExpansion(node, facts);
      return;
    case 'ArithmeticExpansion':
      if (node.expression) facts.arithmetic(arithmeticTemplate(node.expression), node.text);
      return;
    case 'ArithmeticCommand':
      if (node.expression) facts.arithmetic(arithmeticTemplate(node.expression), `((${node.body}))`);
      return;
    case 'TestCommand':
      testExpression(node.expression, facts, textOf(node));
      return;
    case 'FileDescriptorVariable':
      // `exec {fd}>file` assigns the descriptor's number to the variable named in the braces.
      if (!isName(node.name)) facts.variableName(literalTemplate(node.name), `{${node.name}}`);
      facts.assign(node.name, Level.Arith, true, `{${node.name}}`);
      return;
  }
}

function parameterExpansion(p: ParameterExpansionPart, facts: ScriptFacts): void {
  const keys = p.index?.value === '@' || p.index?.value === '*';
  if (p.index && !keys && !facts.isAssociative(p.parameter)) facts.arithmetic(templateOf(p.index, false), p.text);
  const op = p.operation;
  if (p.prefix === '!' && !keys && op?.type !== 'Names') {
    if (op?.type === 'Transform' && op.operand.value === 'P')
      facts.issue(p.text, 'bash expands the value of a variable named at run time as a prompt string');
    else
      facts.reexpanded(
        p.parameter,
        p.text,
        `bash reads the value of $${p.parameter} as a variable name (indirect expansion) and evaluates its subscript`,
      );
    return;
  }
  if (!op) return;
  if (op.type === 'Slice') {
    facts.arithmetic(templateOf(op.offset, false), p.text);
    if (op.length) facts.arithmetic(templateOf(op.length, false), p.text);
  } else if (op.type === 'Transform' && op.operand.value === 'P') {
    facts.reexpanded(
      p.parameter,
      p.text,
      `bash expands the value of $${p.parameter} as a prompt string (\${x@P}), running any $(...) or backticks in it`,
    );
  } else if (op.type === 'Default' && (op.operator === '=' || op.operator === ':=')) {
    facts.assign(p.parameter, templateOf(op.operand, false), false, p.text);
  }
}

function testExpression(e: TestExpression, facts: ScriptFacts, text: string): void {
  switch (e.type) {
    case 'TestUnary':
      if (e.operator === '-v') facts.variableName(templateOf(e.operand, false), text);
      return;
    case 'TestBinary':
      if (ARITH_TESTS.has(e.operator)) {
        facts.arithmetic(templateOf(e.left, false), text);
        facts.arithmetic(templateOf(e.right, false), text);
      }
      return;
    case 'TestLogical':
      for (const operand of e.operands) testExpression(operand, facts, text);
      return;
    case 'TestNot':
      testExpression(e.operand, facts, text);
      return;
    case 'TestGroup':
      testExpression(e.expression, facts, text);
  }
}

/** Records an assignment once its value was visited. `sure`: it sets a shell variable (not `x=1 cmd`). */
export function recordAssignment(a: Assignment, facts: ScriptFacts, sure: boolean): void {
  if (a.index && !facts.isAssociative(a.name)) facts.arithmetic(templateOf(a.index, false), a.text);
  const value = a.value;
  if (value.type === 'Word') {
    facts.assign(a.name, templateOf(value, false), sure && !a.index, a.text);
    return;
  }
  if (value.elements.length === 0) facts.assign(a.name, Level.Arith, sure, a.text);
  for (const element of value.elements) {
    const keyed = keyedElement(element);
    if (keyed) {
      if (!facts.isAssociative(a.name)) facts.arithmetic(keyed.key, a.text);
      facts.assign(a.name, keyed.value, sure, a.text);
    } else {
      facts.assign(a.name, templateOf(element, true), sure, a.text);
    }
  }
}

/** `[key]=value` in a compound assignment: the key and the value as templates. */
function keyedElement(element: Word): { key: Template; value: Template } | undefined {
  if (!element.text.startsWith('[')) return undefined;
  const t = templateOf(element, false);
  let depth = 0;
  for (let i = 0; i < t.text.length; i++) {
    if (t.text[i] === '[') depth++;
    else if (t.text[i] === ']' && --depth === 0) {
      if (t.text[i + 1] !== '=' && !(t.text[i + 1] === '+' && t.text[i + 2] === '=')) return undefined;
      const valueStart = t.text.indexOf('=', i) + 1;
      return {
        key: { text: t.text.slice(1, i), holes: t.holes },
        value: { text: t.text.slice(valueStart), holes: t.holes },
      };
    }
  }
  return undefined;
}

/** Inside a `for`/`select` body: the loop variable is set, to one of the words. */
export function loopVariable(node: For | Select, facts: ScriptFacts, text: string): void {
  const name = node.name.value;
  if (node.type === 'Select') facts.assign('REPLY', Level.Unknown, true, text);
  if (!node.wordlist) {
    facts.assign(name, Level.Unknown, true, text); // the positional parameters
    return;
  }
  for (const word of node.wordlist) facts.assign(name, listWord(word), true, text);
  if (node.wordlist.length === 0) facts.assign(name, Level.Arith, true, text);
}

function listWord(word: Word): Template | Level {
  if (/^\{[\d.,+-]*\}$/.test(word.text)) return Level.Arith; // {1..10}, {1,2,3}
  if (/^\{[\w.,-]*\}$/.test(word.text)) return Level.Clean;
  return templateOf(word, true);
}

/** `for ((init; test; update))`: three expressions, the first run once before the others. */
export function arithmeticFor(node: ArithmeticFor, facts: ScriptFacts, text: string): void {
  for (const e of [node.initialize, node.test, node.update]) if (e) facts.arithmetic(arithmeticTemplate(e), text);
}

/**
 * `{name}>file` where unbash reads `{name}` as a word (it does when the name has a subscript):
 * bash assigns the new descriptor to that name, evaluating its subscript.
 */
export function descriptorWords(node: Command, facts: ScriptFacts): void {
  const suffix = node.suffix;
  for (let i = 0; i + 1 < suffix.length; i++) {
    const item = suffix[i]!;
    const next = suffix[i + 1]!;
    if (item.type !== 'Word' || next.type === 'Word' || next.type === 'Assignment' || next.pos !== item.end) continue;
    if (!/^\{.*\}$/s.test(item.text)) continue;
    const t = templateOf(item, false);
    facts.variableName({ text: t.text.slice(1, -1), holes: t.holes }, item.text);
  }
}
