/**
 * Debian's Chromium driven by playwright-core (no browser download), with flags that keep it
 * offline-safe. Shared by the browser tests and the agent-readiness checker's WebMCP probe.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's Chromium; CHROME_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Offline-safe flags: no background fetches, no component updates, no QUIC. */
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium)`);
  // Loaded on first launch: importing playwright-core costs ≈ 1 s of CPU, which every run of the
  // agent-readiness CLI paid, even with --no-browser or a usage error.
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}
