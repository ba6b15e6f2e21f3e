// The rules page's table of contents: one link per section, so Test a call, Import and export,
// Grants and History are one click away instead of below every rule. Sections are listed in
// SECTIONS; a panel added to the page adds its entry there and wraps itself in <RulesSection>.
import type { ReactNode } from 'react';

export interface RulesSectionEntry {
  id: string;
  label: string;
}

export const SECTIONS = {
  rules: { id: 'rules', label: 'Rules' },
  testCall: { id: 'test-call', label: 'Test a call' },
  policyTests: { id: 'policy-tests', label: 'Policy tests' },
  shadow: { id: 'shadow', label: 'Shadow policy' },
  importExport: { id: 'import-export', label: 'Import and export' },
  grants: { id: 'grants', label: 'Grants' },
  history: { id: 'history', label: 'History' },
} as const satisfies Record<string, RulesSectionEntry>;

export function SectionNav({ sections }: { sections: readonly RulesSectionEntry[] }) {
  return (
    <nav aria-label="Rules page sections" className="rules-nav">
      <ul className="rules-nav__list">
        {sections.map((s) => (
          <li key={s.id}>
            <a href={`#${s.id}`} className="rules-nav__link">
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** An anchor target for one section; scroll-margin keeps its heading clear of the sticky nav. */
export function RulesSection({ entry, children }: { entry: RulesSectionEntry; children: ReactNode }) {
  return (
    <div id={entry.id} className="rules-section">
      {children}
    </div>
  );
}
