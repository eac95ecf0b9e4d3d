/**
 * Workaround for Astro's MDX modules carrying a module-level directive (`"use astro:head-inject"`)
 * that Vite's bundler warns about on every build, once per MDX file, with a coloured code frame
 * (https://github.com/withastro/astro/issues/18087): the directive is Astro's own marker, kept as it
 * should be, and an author can do nothing about it. This drops that one warning from the build log;
 * every other bundler warning passes through.
 * @module
 */

/** What the bundler hands a log handler, as far as this module reads it. */
interface BundlerLog {
  code?: string;
  message: string;
}
type LogHandler = (level: 'warn' | 'info' | 'debug', log: BundlerLog) => void;

/** Whether `log` is the warning about Astro's head-inject directive. */
export function isAstroDirectiveWarning(log: BundlerLog): boolean {
  return log.code === 'MODULE_LEVEL_DIRECTIVE' && log.message.includes('"use astro:head-inject"');
}

/** A Vite `build.rolldownOptions.onLog` that forwards every log but {@link isAstroDirectiveWarning}. */
export function withoutAstroDirectiveWarning(level: 'warn' | 'info' | 'debug', log: BundlerLog, handler: LogHandler): void {
  if (level === 'warn' && isAstroDirectiveWarning(log)) return;
  handler(level, log);
}
