/**
 * Publishing on the day. A build holds back the articles and solutions dated after its UTC day
 * (content/catalog.ts `isScheduled`) and lists those days in `generated/data/scheduled.json`; the daily
 * `publish-scheduled` function asks Netlify for a new build through a build hook (BUILD_HOOK_URL) once one of them
 * has come, so a scheduled article goes live that morning without a push. Nothing due, nothing asked: a site with
 * nothing scheduled never builds for it. A day stays due until a build of that day or later is deployed (its list no
 * longer has it), so a failed build is asked for again the next day.
 * @module
 */

/** The file the build writes into the functions' data folder, and its shape. */
export const SCHEDULED_DAYS_FILE = 'scheduled.json';
export interface ScheduledDays {
  /** Days (YYYY-MM-DD, UTC) on which an entry held back by this build is due, sorted. */
  days: string[];
}

/** A build hook answers at once (it queues the build); past this the request is given up and the next day tries again. */
export const BUILD_HOOK_TIMEOUT_MS = 10_000;

export type ScheduledPublishOutcome =
  | { outcome: 'nothing-due'; next: string | null }
  | { outcome: 'no-build-hook'; due: string[] }
  | { outcome: 'build-requested'; due: string[]; status: number }
  | { outcome: 'build-hook-failed'; due: string[]; status?: number; error?: string };

export interface ScheduledPublishDeps {
  /** The days this deploy's build listed ({@link ScheduledDays}). */
  days: readonly string[];
  /** Today, YYYY-MM-DD in UTC (content/catalog.ts `utcDay`). */
  today: string;
  /** The Netlify build hook (BUILD_HOOK_URL); null: not configured. */
  buildHookUrl: string | null;
  fetch: typeof fetch;
  /** The site's User-Agent for outbound requests (kernel/user-agent.ts). */
  userAgent: string;
}

/** Asks for a build when a held-back day has come (see the module comment). Never throws: the outcome says what happened. */
export async function publishScheduled(deps: ScheduledPublishDeps): Promise<ScheduledPublishOutcome> {
  const due = deps.days.filter((day) => day <= deps.today);
  if (!due.length) return { outcome: 'nothing-due', next: deps.days.find((day) => day > deps.today) ?? null };
  if (!deps.buildHookUrl) return { outcome: 'no-build-hook', due };
  // Netlify names the deploy after `trigger_title`: the deploy list says why this build ran.
  const url = new URL(deps.buildHookUrl);
  url.searchParams.set('trigger_title', `Scheduled publication (${due.join(', ')})`);
  try {
    const response = await deps.fetch(url, {
      method: 'POST',
      headers: { 'user-agent': deps.userAgent },
      signal: AbortSignal.timeout(BUILD_HOOK_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok
      ? { outcome: 'build-requested', due, status: response.status }
      : { outcome: 'build-hook-failed', due, status: response.status };
  } catch (error) {
    return { outcome: 'build-hook-failed', due, error: error instanceof Error ? error.message : String(error) };
  }
}
