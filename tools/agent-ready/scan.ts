/**
 * One scan, every rubric: the rubrics run one after another against one check context, so a document
 * several rubrics read (robots.txt, the home page, llms.txt, each sampled page) is fetched once.
 * @module
 */
import { runChecks } from './registry.ts';
import { AFDOCS } from './rubrics/afdocs.ts';
import { AGENT_READABILITY } from './rubrics/agent-readability.ts';
import { AGENTREADY_ORG } from './rubrics/agentready-org.ts';
import { BEHAVIOUR } from './rubrics/behaviour.ts';
import { CACHE_SAFETY } from './rubrics/cache-safety.ts';
import { ISITAGENTREADY } from './rubrics/isitagentready.ts';
import { LIGHTHOUSE } from './rubrics/lighthouse.ts';
import { MINTLIFY } from './rubrics/mintlify.ts';
import { samplePages } from './site.ts';
import type { BehaviourNotRun, Check, CheckContext, CheckResult, CheckStatus, Rubric, RubricSummary } from './types.ts';
import { CHECKER_NAME, CHECKER_VERSION } from './version.ts';

/** The checker's name and version, stamped on every report. */
export const CHECKER = { name: CHECKER_NAME, version: CHECKER_VERSION } as const;

/** Every rubric, in report order: the public ones first, then this checker's own. */
export const RUBRICS: readonly Rubric[] = [
  ISITAGENTREADY,
  LIGHTHOUSE,
  MINTLIFY,
  AFDOCS,
  AGENTREADY_ORG,
  AGENT_READABILITY,
  CACHE_SAFETY,
  BEHAVIOUR,
];

/** Status counts. */
export type Counts = Record<CheckStatus, number>;

/** One rubric's part of the report. */
export interface RubricReport {
  id: string;
  name: string;
  /** The version of the rubric's published definition the checks follow. */
  version: string;
  definition: string;
  summary: RubricSummary;
  counts: Counts;
  checks: CheckResult[];
}

/** The whole report, as `--json` prints it. */
export interface ScanReport {
  url: string;
  checkedAt: string;
  checker: { name: string; version: string };
  /** `behaviourNotRun`: `--behaviour` was asked for and not run, and why (the origin named redirects elsewhere). */
  options: { behaviour: boolean; behaviourNotRun?: BehaviourNotRun; browser: boolean; pages: string[] };
  rubrics: RubricReport[];
  counts: Counts;
  /** Set when the scan's deadline passed before every check finished: the report is partial. */
  incomplete?: string;
}

/** Progress hooks: called around each check; they never change the results. */
export interface ScanHooks {
  onStart?(rubric: Rubric, check: Check, index: number, total: number): void;
  onDone?(rubric: Rubric, result: CheckResult, index: number, total: number): void;
}

export function countsOf(results: readonly CheckResult[]): Counts {
  const counts: Counts = { pass: 0, warn: 0, fail: 0, neutral: 0 };
  for (const r of results) counts[r.status]++;
  return counts;
}

/** Runs `rubrics` (default: all) against the context and assembles the report. */
export async function scan(
  ctx: CheckContext,
  rubrics: readonly Rubric[] = RUBRICS,
  hooks: ScanHooks = {},
  now: () => Date = () => new Date(),
): Promise<ScanReport> {
  const total = rubrics.reduce((n, r) => n + r.checks.length, 0);
  let offset = 0;
  const reports: RubricReport[] = [];
  for (const rubric of rubrics) {
    const base = offset;
    const checks = await runChecks(ctx, rubric.checks, {
      onStart: (check, index) => hooks.onStart?.(rubric, check, base + index, total),
      onDone: (result, index) => hooks.onDone?.(rubric, result, base + index, total),
    });
    offset += rubric.checks.length;
    reports.push({
      id: rubric.id,
      name: rubric.name,
      version: rubric.version,
      definition: rubric.definition,
      summary: rubric.summarize(checks),
      counts: countsOf(checks),
      checks,
    });
  }
  return {
    url: ctx.baseUrl,
    checkedAt: now().toISOString(),
    checker: { ...CHECKER },
    options: {
      behaviour: !!ctx.behaviour,
      ...(ctx.behaviourNotRun ? { behaviourNotRun: ctx.behaviourNotRun } : {}),
      browser: !!ctx.probeWebMcp,
      pages: await samplePages(ctx),
    },
    rubrics: reports,
    counts: countsOf(reports.flatMap((r) => r.checks)),
    ...(ctx.deadline !== undefined && Date.now() >= ctx.deadline
      ? { incomplete: 'the scan budget ran out: checks that needed more requests report "scan budget used up"' }
      : {}),
  };
}

/** The rubrics named by `ids` (comma-separated on the command line); unknown ids are returned apart. */
export function selectRubrics(ids: readonly string[]): { rubrics: Rubric[]; unknown: string[] } {
  const unknown = ids.filter((id) => !RUBRICS.some((r) => r.id === id));
  return { rubrics: RUBRICS.filter((r) => ids.includes(r.id)), unknown };
}
