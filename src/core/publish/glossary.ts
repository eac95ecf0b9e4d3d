/**
 * The glossary: the terms the articles, solutions and products use, defined once in each language,
 * for readers new to the field and for agents that resolve a term before they answer (the Agent
 * Readability Spec asks every page to link one; the footer does when the site has one). The terms are
 * content (content/glossary.yaml, optional: a fork's field has its own words); one list renders the page
 * (src/components/GlossaryPage.astro) and its markdown twin, so both carry the same definitions.
 * @module
 */
import type { GlossaryTerm, Lang } from '../content/catalog.ts';

export type { GlossaryTerm };

/** Whether the site has a glossary: content/glossary.yaml defines at least one term. */
export function hasGlossary(terms: readonly GlossaryTerm[] | undefined): boolean {
  return (terms?.length ?? 0) > 0;
}

/** The glossary's twin body in one language: one `## term` section per term, its definition below. */
export function glossaryMarkdown(terms: readonly GlossaryTerm[], lang: Lang): string {
  return terms.map((g) => `## ${g.term[lang]}\n\n${g.definition[lang]}`).join('\n\n');
}
