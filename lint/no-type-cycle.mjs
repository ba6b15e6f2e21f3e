// `gatehouse/no-type-cycle`: a dependency cycle that passes through a type-only import.
// import-x/no-cycle skips type-only imports (they vanish at run time), but a cycle of types still
// ties two modules into one unit a reader cannot take apart: the fix is the same (move the shared
// types where both may import them). This rule looks only at type-only imports and follows every
// import from there, types included; cycles of value imports alone are import-x/no-cycle's.
// It reuses import-x's resolver settings and module cache (`eslint-plugin-import-x/core/...`).
import { ModuleInfo } from 'eslint-plugin-import-x/core/index';
import { moduleVisitor } from 'eslint-plugin-import-x/utils';

/** `import type`, `import { type A }` (all specifiers types) and `export type { A } from`. */
function isTypeOnly(node) {
  if (node.type === 'ImportDeclaration') {
    return (
      node.importKind === 'type' ||
      (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'))
    );
  }
  if (node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') return node.exportKind === 'type';
  return false;
}

const outsideProject = (file) => file.includes('/node_modules/');

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid a dependency cycle that passes through a type-only import.' },
    schema: [],
    messages: {
      cycle:
        'Dependency cycle through a type import: {{route}} leads back here. Move the shared types to a module both may import.',
    },
  },
  create(context) {
    const filename = context.physicalFilename;
    if (filename === '<text>') return {};
    return moduleVisitor(
      (source, importer) => {
        if (!isTypeOnly(importer)) return;
        const first = ModuleInfo.get(source.value, context);
        if (!first || first.path === filename || outsideProject(first.path)) return;
        // Breadth first over every import from there: the shortest way back is the one reported.
        const seen = new Set([first.path]);
        const queue = [{ info: first, route: [source.value] }];
        while (queue.length > 0) {
          const { info, route } = queue.shift();
          for (const [next, { resolve, declarations }] of info.getImports()) {
            if (seen.has(next) || outsideProject(next)) continue;
            const via = [...declarations][0]?.source.value ?? next;
            if (next === filename) {
              context.report({ node: importer, messageId: 'cycle', data: { route: [...route, via].join(' -> ') } });
              return;
            }
            seen.add(next);
            const nextInfo = resolve();
            if (nextInfo) queue.push({ info: nextInfo, route: [...route, via] });
          }
        }
      },
      { esmodule: true },
    );
  },
};
