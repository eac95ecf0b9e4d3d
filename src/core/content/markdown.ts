/**
 * Markdown twins: turning authored markdown/MDX into clean GFM that agents can read.
 * @module
 */
import { absoluteUrl, paths } from '../kernel/paths.ts';

const FENCE = /^( {0,3})(`{3,}|~{3,})/;

/** Splits markdown into alternating prose and fenced-code segments, so rewrites never touch code. */
function mapProse(markdown: string, rewrite: (prose: string) => string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let prose: string[] = [];
  let fence: string | null = null;
  const flush = (): void => {
    if (prose.length) out.push(rewrite(prose.join('\n')));
    prose = [];
  };
  for (const line of lines) {
    const match = FENCE.exec(line);
    if (fence === null && match) {
      flush();
      fence = match[2]![0]!.repeat(match[2]!.length);
      out.push(line);
    } else if (fence !== null) {
      out.push(line);
      if (match && match[2]!.startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = null;
    } else {
      prose.push(line);
    }
  }
  flush();
  return out.join('\n');
}

/** Applies `rewrite` to prose outside inline code spans. */
function mapOutsideInlineCode(prose: string, rewrite: (text: string) => string): string {
  return prose
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part : rewrite(part)))
    .join('');
}

/** A code span: a run of backticks, its text, the same run again (no longer: ``a ` b`` holds a backtick). */
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/;

/** An underscore run that delimits emphasis: not between two letters or digits (`_word_`, not `submit_feedback`). */
const EMPHASIS_UNDERSCORES = /(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu;

/**
 * One line of CommonMark inline markup as plain text (a page description, search words): link text kept, code spans'
 * text verbatim, emphasis delimiters dropped. An underscore inside a word is not emphasis in CommonMark, nor anything
 * inside a code span: `submit_feedback` and `client_credentials` keep theirs (stranger s10b, finding 3).
 */
export function inlinePlainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(CODE_SPAN)
    .map((part, i) => (i % 3 === 0 ? part.replace(/\*+/g, '').replace(EMPHASIS_UNDERSCORES, '') : i % 3 === 2 ? part : ''))
    .join('');
}

/** Rewrites root-relative link targets (`](/x)`, `[ref]: /x`, `href="/x"`) to absolute URLs. */
export function absolutizeLinks(markdown: string, origin: string): string {
  return mapProse(markdown, (prose) =>
    mapOutsideInlineCode(prose, (text) =>
      text
        .replace(/\]\(\/(?!\/)/g, `](${origin}/`)
        .replace(/^(\s{0,3}\[[^\]]+\]:\s+)\/(?!\/)/gm, `$1${origin}/`)
        .replace(/(href|src)="\/(?!\/)/g, `$1="${origin}/`),
    ),
  );
}

/** A link target relative to the document (`./a.png`, `img/a.png`, `../a.png`), not root-relative, absolute or a fragment. */
export function isRelativeTarget(target: string): boolean {
  return target !== '' && !target.startsWith('/') && !target.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(target);
}

const MARKDOWN_IMAGE = /(!\[[^\]]*\]\()(<[^>]*>|[^)\s]+)((?:\s+"[^"]*")?\))/g;
const HTML_IMAGE = /(<img\b[^>]*?\bsrc=")([^"]+)(")/gi;

/** The relative image targets of a document (`![alt](./a.png)`, `<img src="./a.png">`), outside code. */
export function relativeImages(markdown: string): string[] {
  const found = new Set<string>();
  mapProse(markdown, (prose) =>
    mapOutsideInlineCode(prose, (text) => {
      for (const m of text.matchAll(MARKDOWN_IMAGE))
        if (isRelativeTarget(m[2]!.replace(/^<|>$/g, ''))) found.add(m[2]!.replace(/^<|>$/g, ''));
      for (const m of text.matchAll(HTML_IMAGE)) if (isRelativeTarget(m[2]!)) found.add(m[2]!);
      return text;
    }),
  );
  return [...found];
}

/**
 * Points relative images at the URLs `urls` gives (the built assets), outside code; targets it has
 * no URL for stay as they are.
 */
export function rewriteImages(markdown: string, urls: ReadonlyMap<string, string>): string {
  if (urls.size === 0) return markdown;
  return mapProse(markdown, (prose) =>
    mapOutsideInlineCode(prose, (text) =>
      text
        .replace(MARKDOWN_IMAGE, (all, open: string, target: string, close: string) => {
          const url = urls.get(target.replace(/^<|>$/g, ''));
          return url ? `${open}${url}${close}` : all;
        })
        .replace(HTML_IMAGE, (all, open: string, target: string, close: string) => {
          const url = urls.get(target);
          return url ? `${open}${url}${close}` : all;
        }),
    ),
  );
}

/** Title-cases a component kind for the blockquote label (`tip` -> `Tip`). */
function label(kind: string): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

/**
 * Removes MDX syntax: `import`/`export` lines disappear, an `<Audience only="agents">` block is kept
 * as plain markdown and an `<Audience only="humans">` block is dropped, a block component
 * (`<Callout type="tip" title="X">…</Callout>`) becomes a GFM blockquote headed by its type and
 * title, and self-closing components are dropped.
 */
export function stripMdx(markdown: string): string {
  return mapProse(markdown, (prose) => {
    const withoutEsm = prose.replace(/^(import|export)\s.*$/gm, '');
    // Blocks for one audience (src/components/Audience.astro): the twin keeps the agents' text as it is and drops the humans'.
    const forAgents = withoutEsm.replace(
      /^<Audience\s+only="(agents|humans)"\s*>\s*\n([\s\S]*?)\n<\/Audience>\s*$/gm,
      (_all, audience: string, inner: string) => (audience === 'agents' ? inner.trim() : ''),
    );
    const blocks = forAgents.replace(
      /^<([A-Z][A-Za-z0-9]*)((?:\s+[a-zA-Z-]+="[^"]*")*)\s*>\s*\n([\s\S]*?)\n<\/\1>\s*$/gm,
      (_all, _name: string, attrs: string, inner: string) => {
        const type = /\btype="([^"]*)"/.exec(attrs)?.[1];
        const title = /\btitle="([^"]*)"/.exec(attrs)?.[1];
        const heading = [type ? label(type) : null, title].filter(Boolean).join(': ');
        const body = inner
          .trim()
          .split('\n')
          .map((line) => (line ? `> ${line}` : '>'));
        // A blank line after it: a heading or paragraph the source put right below `</Callout>` would otherwise follow the
        // quote with none (CommonMark ends the quote anyway; stricter tools warn: stranger s10c, 7e).
        return `${[heading ? `> **${heading}**` : null, heading ? '>' : null, ...body].filter((l) => l !== null).join('\n')}\n`;
      },
    );
    return blocks.replace(/^<[A-Z][A-Za-z0-9]*(?:\s+[a-zA-Z-]+="[^"]*")*\s*\/>\s*$/gm, '').replace(/\n{3,}/g, '\n\n');
  });
}

/**
 * The clean body of a twin: MDX stripped (for .mdx sources), relative images pointed at their
 * built assets (`images`: target -> absolute URL), links absolute, tidy blank lines.
 */
export function twinBody(source: string, origin: string, isMdx: boolean, images: ReadonlyMap<string, string> = new Map()): string {
  const body = rewriteImages(isMdx ? stripMdx(source) : source, images);
  return absolutizeLinks(body, origin)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Rough token count for `x-markdown-tokens`: about four characters a token, the common convention. */
export function estimateTokens(markdown: string): number {
  return Math.ceil(markdown.length / 4);
}

const HAN = /\p{Script=Han}/gu;
const LATIN_WORD = /[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*/g;
/** Reading speeds behind the minutes shown on articles. */
export const READING_HAN_CHARS_PER_MINUTE = 400;
export const READING_WORDS_PER_MINUTE = 220;

/** Minutes to read a mixed Chinese/English text (at least 1). */
export function readingMinutes(markdown: string): number {
  const prose = mapProse(markdown, (p) => p);
  const han = prose.match(HAN)?.length ?? 0;
  const words = prose.replace(HAN, ' ').match(LATIN_WORD)?.length ?? 0;
  return Math.max(1, Math.round(han / READING_HAN_CHARS_PER_MINUTE + words / READING_WORDS_PER_MINUTE));
}

/** One metadata line of a twin's header block. */
export type MetaEntry = [label: string, value: string | number | undefined | null];

const INDEX_POINTER_PREFIX = '> Index of this site for agents: ';

/**
 * The line every twin opens with: an agent that lands on one page learns where the whole site is
 * listed. Before the H1, as Mintlify's markdown pages put their index pointer; one line, so a
 * reader that wants the title skips one blockquote line.
 */
export function indexPointer(origin: string): string {
  return `${INDEX_POINTER_PREFIX}${absoluteUrl(origin, paths.llms)}`;
}

/** A twin without its opening {@link indexPointer} (llms-full.txt joins twins and names llms.txt once). */
export function withoutIndexPointer(markdown: string): string {
  return markdown.startsWith(INDEX_POINTER_PREFIX) ? markdown.slice(markdown.indexOf('\n') + 1).replace(/^\n/, '') : markdown;
}

/**
 * The metadata a twin opens with, as YAML front matter: the Agent Readability Spec's structured
 * metadata (a14y's markdown.frontmatter). `doc_version` names the revision of the page's text.
 */
export interface TwinFrontMatter {
  title: string;
  description: string;
  doc_version: string;
  /** YYYY-MM-DD. */
  last_updated: string;
}

const FRONT_MATTER = /^---\n[\s\S]*?\n---\n\n?/;

/**
 * `markdown` with `fields` as YAML front matter before it. Each value is written as a JSON string,
 * which is a YAML double-quoted scalar (YAML 1.2 reads JSON), so quotes, colons and newlines in a
 * title need no YAML library.
 */
export function withFrontMatter(fields: TwinFrontMatter, markdown: string): string {
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join('\n')}\n---\n\n${markdown}`;
}

/** A twin without its {@link withFrontMatter} block (unchanged when it has none). */
export function withoutFrontMatter(markdown: string): string {
  return markdown.replace(FRONT_MATTER, '');
}

/**
 * A complete twin document: the {@link indexPointer}, `# Title`, a blockquote summary, a metadata
 * list, then the body. Entries with no value are left out.
 */
export function markdownDocument(origin: string, title: string, summary: string | undefined, meta: MetaEntry[], body: string): string {
  const lines = [indexPointer(origin), '', `# ${title}`, ''];
  if (summary) lines.push(`> ${summary.replace(/\s*\n\s*/g, ' ')}`, '');
  const metaLines = meta.filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => `- ${k}: ${v}`);
  if (metaLines.length) lines.push(...metaLines, '');
  if (body.trim()) lines.push(body.trim(), '');
  return lines.join('\n');
}

/** Moves every ATX heading one level down (H1 -> H2 …, H6 stays), outside code fences. */
export function demoteHeadings(markdown: string): string {
  return mapProse(markdown, (prose) => prose.replace(/^(#{1,5}) /gm, '#$1 '));
}
