/**
 * agentSkills check: the Agent Skills discovery index (`/.well-known/agent-skills/index.json`,
 * v0.2.0) and the integrity of every skill it lists: each file is fetched and its SHA-256 compared
 * with the digest the index publishes.
 * @module
 */
import { type Fetched, get, getJsonDocument, sha256Hex, summary } from '../http.ts';
import { type CheckContext, fail, pass, type Verdict } from '../types.ts';

/** Probed in this order; the legacy path only when the first is missing. */
export const SKILLS_INDEX_PATHS = ['/.well-known/agent-skills/index.json', '/.well-known/skills/index.json'] as const;
/** Skills verified per run (each costs one request per file). */
export const MAX_SKILLS_VERIFIED = 20;
/** Files verified per skill. */
export const MAX_FILES_PER_SKILL = 20;

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DIGEST = /^sha256:([0-9a-f]{64})$/;

interface SkillEntry {
  name?: unknown;
  description?: unknown;
  url?: unknown;
  digest?: unknown;
  files?: unknown;
}

/** A `files[]` path the RFC allows: relative, `/`-separated, printable ASCII, no `..`, no `\ ? # [ ]`. */
function validFilePath(path: string): boolean {
  return /^[\x20-\x7e]+$/.test(path) && !/[\\?#[\]]/.test(path) && !path.startsWith('/') && !path.split('/').includes('..');
}

/** YAML front matter `name` and `description` of a SKILL.md (top-level scalar keys only). */
export function frontMatter(markdown: string): { name?: string; description?: string } | null {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(markdown);
  if (!match) return null;
  const value = (key: string): string | undefined => {
    const line = new RegExp(`^${key}:[ \\t]*(.*)$`, 'm').exec(match[1]!)?.[1]?.trim();
    return line ? line.replace(/^(['"])(.*)\1$/, '$2') : undefined;
  };
  return { name: value('name'), description: value('description') };
}

/** The RFC's skill-level digest: SHA-256 over sorted `path\0hex\n` lines. */
export async function manifestDigest(files: { path: string; hex: string }[]): Promise<string> {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return sha256Hex(new TextEncoder().encode(sorted.map((f) => `${f.path}\0${f.hex}\n`).join('')));
}

async function fetched200(ctx: CheckContext, url: string): Promise<Fetched | string> {
  const res = await get(ctx, url);
  return res.error || res.status !== 200 ? summary(ctx, res) : res;
}

/**
 * Verifies one skill entry; returns null or the reason it fails.
 *
 * The two "0.2.0" documents disagree on what the skill-level `digest` covers: the scanner's guide
 * says the bytes at `url`, the agent-skills-discovery RFC a manifest of the `files` digests. Both are
 * accepted for that one field; every per-file digest and the `url` artifact are verified against
 * the served bytes without exception. Entries without digests (v0.1.0 string `files`) fail: the
 * scanner accepts them, but then nothing can be verified (stricter reading).
 */
async function skillProblem(ctx: CheckContext, indexUrl: string, entry: SkillEntry): Promise<string | null> {
  const name = typeof entry.name === 'string' ? entry.name : '';
  if (!name || name.length > 64 || !NAME.test(name))
    return `skill name ${JSON.stringify(entry.name ?? null)} is not 1-64 chars of a-z, 0-9 and single inner hyphens`;
  if (typeof entry.description !== 'string' || !entry.description.trim()) return `skill "${name}" has no description`;
  const declared = typeof entry.digest === 'string' ? DIGEST.exec(entry.digest)?.[1] : undefined;
  if (!declared) return `skill "${name}" has no "digest" of the form sha256:<64 lower-case hex>`;
  if (entry.url === undefined && entry.files === undefined) return `skill "${name}" lists neither "url" nor "files"`;

  const acceptable: string[] = [];
  if (entry.url !== undefined) {
    if (typeof entry.url !== 'string') return `skill "${name}" has a non-string "url"`;
    const url = new URL(entry.url, indexUrl).href;
    const dir = /\/agent-skills\/([^/]+)\/[^/]+$/.exec(new URL(url).pathname)?.[1];
    if (dir !== undefined && dir !== name) return `skill "${name}" is served from directory "${dir}" (name must equal the directory)`;
    const res = await fetched200(ctx, url);
    if (typeof res === 'string') return `skill "${name}": ${res}`;
    acceptable.push(await sha256Hex(res.bytes));
    if (/\/SKILL\.md$/i.test(new URL(url).pathname)) {
      const meta = frontMatter(res.text);
      if (!meta?.name || !meta.description) return `skill "${name}": SKILL.md has no YAML front matter with name and description`;
      if (meta.name !== name) return `skill "${name}": SKILL.md front matter names "${meta.name}"`;
    }
  }
  if (entry.files !== undefined) {
    if (!Array.isArray(entry.files) || entry.files.length === 0) return `skill "${name}" has an empty "files" array`;
    if (entry.files.some((f) => typeof f === 'string'))
      return `skill "${name}" lists files without digests (v0.1.0 index); publish v0.2.0 {path, digest} entries`;
    const hashes: { path: string; hex: string }[] = [];
    for (const file of entry.files.slice(0, MAX_FILES_PER_SKILL) as { path?: unknown; digest?: unknown }[]) {
      if (typeof file?.path !== 'string' || !validFilePath(file.path))
        return `skill "${name}" has an invalid file path ${JSON.stringify(file?.path ?? null)}`;
      const fileDigest = typeof file.digest === 'string' ? DIGEST.exec(file.digest)?.[1] : undefined;
      if (!fileDigest) return `skill "${name}": ${file.path} has no sha256 digest`;
      const res = await fetched200(ctx, new URL(`${name}/${file.path}`, indexUrl).href);
      if (typeof res === 'string') return `skill "${name}": ${res}`;
      const actual = await sha256Hex(res.bytes);
      if (actual !== fileDigest)
        return `skill "${name}": digest mismatch for ${file.path} (index sha256:${fileDigest.slice(0, 12)}…, served sha256:${actual.slice(0, 12)}…)`;
      hashes.push({ path: file.path, hex: actual });
    }
    if (!entry.files.some((f) => (f as { path?: unknown }).path === 'SKILL.md')) return `skill "${name}": "files" has no SKILL.md entry`;
    if (entry.files.length <= MAX_FILES_PER_SKILL) acceptable.push(await manifestDigest(hashes));
    else acceptable.push(declared); // not every file was fetched, so the manifest cannot be recomputed
  }
  if (!acceptable.includes(declared))
    return `skill "${name}": digest mismatch (index sha256:${declared.slice(0, 12)}…, served sha256:${acceptable[0]!.slice(0, 12)}…)`;
  return null;
}

const FIX =
  'Publish /.well-known/agent-skills/index.json with skills[] of {name, type:"skill-md", description, url, digest:"sha256:<hex of the served SKILL.md bytes>"}, and regenerate the digests whenever a skill file changes.';

/** agentSkills: the index answers 200 JSON with a non-empty `skills[]`, and every listed skill verifies. */
export async function checkAgentSkills(ctx: CheckContext): Promise<Verdict> {
  let found = await getJsonDocument(ctx, SKILLS_INDEX_PATHS[0]);
  if (!('doc' in found) && found.res.status === 404) {
    const legacy = await getJsonDocument(ctx, SKILLS_INDEX_PATHS[1]);
    if ('doc' in legacy || legacy.res.status !== 404) found = legacy;
  }
  if (!('doc' in found)) return fail(found.problem, FIX);
  const where = new URL(found.res.url).pathname;
  const skills = found.doc.skills;
  if (!Array.isArray(skills) || skills.length === 0) return fail(`${where}: no skills listed`, FIX);
  for (const entry of skills.slice(0, MAX_SKILLS_VERIFIED)) {
    if (!entry || typeof entry !== 'object') return fail(`${where}: a skill entry is not an object`, FIX);
    const problem = await skillProblem(ctx, found.res.url, entry as SkillEntry);
    if (problem) return fail(problem, FIX);
  }
  const verified = Math.min(skills.length, MAX_SKILLS_VERIFIED);
  return pass(
    `${where}: ${skills.length} skill(s), ${verified === skills.length ? 'all' : `first ${verified}`} verified against their sha256 digests`,
  );
}
