/**
 * Debian's Chromium driven by playwright-core (no browser download), with flags that keep it
 * offline-safe. Shared by the browser tests and the agent-readiness checker's WebMCP probe.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's Chromium (the full browser: Lighthouse, benchmarks, screenshots); CHROME_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * The browser Playwright drives headless: Debian's `chromium-headless-shell` when installed, as
 * Playwright's own default headless browser is the headless shell (its `chromium.launch()` without
 * a channel); else the full Chromium. CHROME_PATH overrides both. The shell starts in ≈ 1.5 s of
 * CPU against ≈ 5 s for the full browser, and the page-level browser tests cost ≈ 40 % less CPU
 * on it (BENCHMARKS.md, "Test suite").
 */
export const HEADLESS_CHROMIUM_PATH =
  process.env.CHROME_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : CHROMIUM_PATH);

/** Offline-safe flags: no background fetches, no component updates, no QUIC. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The full browser's flags when started without Playwright (chrome-launcher for Lighthouse): headless, as Lighthouse recommends. */
export const CHROMIUM_HEADLESS_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

/** Playwright on the headless browser (or on `executablePath`, e.g. {@link CHROMIUM_PATH} where figures were recorded with it). */
export async function launchBrowser(executablePath: string = HEADLESS_CHROMIUM_PATH): Promise<Browser> {
  if (!existsSync(executablePath))
    throw new Error(`Chromium not found at ${executablePath} (apt-get install chromium-headless-shell chromium)`);
  // Loaded on first launch: importing playwright-core costs ≈ 1 s of CPU, which every run of the
  // agent-readiness CLI paid, even with --no-browser or a usage error.
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
}
