/**
 * Request snippets for the API reference: curl, JavaScript `fetch` and Python `requests`, from one
 * request description. Text stays as written (Chinese is never percent-encoded in a snippet): each
 * client encodes the query and the form itself (`--data-urlencode`, `URLSearchParams`, `params=`).
 *
 * Python uses `requests`: the most installed HTTP client, and its keywords (`params`, `json`,
 * `data`, `headers`) map one to one onto the request description.
 * @module
 */

/** One request as the reference shows it. */
export interface HttpSample {
  method: string;
  /** Absolute URL without the query. */
  url: string;
  /** Query parameters in order, unencoded. */
  query: [string, string][];
  /** Request headers other than Content-Type (each client sets that from the body). */
  headers: [string, string][];
  body?: { kind: 'json'; value: unknown } | { kind: 'form'; value: [string, string][] };
  /** How to print the answer: JSON, text, or only the status (no body). */
  answer: 'json' | 'text' | 'status';
}

export type SnippetLanguage = 'curl' | 'javascript' | 'python';

export const SNIPPET_LANGUAGES: readonly { id: SnippetLanguage; label: string; code: string }[] = [
  { id: 'curl', label: 'curl', code: 'sh' },
  { id: 'javascript', label: 'JavaScript', code: 'js' },
  { id: 'python', label: 'Python', code: 'python' },
];

/** A POSIX shell single-quoted word. */
const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A JavaScript single-quoted string literal (JSON escapes, readable non-ASCII). */
const jsString = (text: string): string => `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;

/** A JavaScript property key: bare when it is an identifier. */
const jsKey = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : jsString(key));

/** A JavaScript object literal of string pairs on one line (short) or one pair per line. */
function jsPairs(pairs: [string, string][], indent: string): string {
  const items = pairs.map(([key, value]) => `${jsKey(key)}: ${jsString(value)}`);
  const oneLine = `{ ${items.join(', ')} }`;
  if (oneLine.length + indent.length <= 80) return oneLine;
  return `{\n${items.map((item) => `${indent}  ${item},`).join('\n')}\n${indent}}`;
}

/** `value` as indented JSON text with readable non-ASCII. */
const prettyJson = (value: unknown, indent: number): string => JSON.stringify(value, null, indent);

/** A Python literal of a JSON value: JSON's own text, with true/false/null outside strings made Python's. */
function pythonLiteral(value: unknown, indent: string): string {
  const text = JSON.stringify(value, null, 4) ?? 'None';
  const converted = text.replace(/"(?:[^"\\]|\\.)*"|\btrue\b|\bfalse\b|\bnull\b/g, (token) =>
    token === 'true' ? 'True' : token === 'false' ? 'False' : token === 'null' ? 'None' : token,
  );
  return converted.split('\n').join(`\n${indent}`);
}

const pythonPairs = (pairs: [string, string][], indent: string): string => pythonLiteral(Object.fromEntries(pairs), indent);

/** The curl command line, one option per line. */
export function curlSnippet(sample: HttpSample): string {
  const lines = [
    `curl -sS${sample.query.length ? ' -G' : ''}${sample.method !== 'GET' && sample.method !== 'POST' ? ` -X ${sample.method}` : ''} ${shellQuote(sample.url)}`,
  ];
  for (const [name, value] of sample.query) lines.push(`--data-urlencode ${shellQuote(`${name}=${value}`)}`);
  for (const [name, value] of sample.headers) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (sample.body?.kind === 'json') {
    lines.push(`-H ${shellQuote('Content-Type: application/json')}`);
    lines.push(`--data-raw ${shellQuote(prettyJson(sample.body.value, 2))}`);
  } else if (sample.body?.kind === 'form') {
    for (const [name, value] of sample.body.value) lines.push(`--data-urlencode ${shellQuote(`${name}=${value}`)}`);
  } else if (sample.method === 'POST') {
    lines[0] = lines[0]!.replace('curl -sS', 'curl -sS -X POST');
  }
  if (sample.answer === 'status') lines[0] = lines[0]!.replace('curl -sS', "curl -sS -o /dev/null -w '%{http_code} %{redirect_url}\\n'");
  return lines.join(' \\\n  ');
}

/** An ES module snippet with top-level await (Node 18+, Deno, a browser console). */
export function fetchSnippet(sample: HttpSample): string {
  const url = sample.query.length
    ? `${jsString(`${sample.url}?`)} + new URLSearchParams(${jsPairs(sample.query, '')})`
    : jsString(sample.url);
  const options: string[] = [];
  if (sample.method !== 'GET') options.push(`  method: ${jsString(sample.method)},`);
  const headers: [string, string][] = [...sample.headers];
  if (sample.body?.kind === 'json') headers.push(['Content-Type', 'application/json']);
  if (headers.length) options.push(`  headers: ${jsPairs(headers, '  ')},`);
  if (sample.body?.kind === 'json') options.push(`  body: JSON.stringify(${prettyJson(sample.body.value, 2).split('\n').join('\n  ')}),`);
  else if (sample.body?.kind === 'form') options.push(`  body: new URLSearchParams(${jsPairs(sample.body.value, '  ')}),`);
  if (sample.answer === 'status') options.push(`  redirect: 'manual',`);
  const call = options.length ? `await fetch(${url}, {\n${options.join('\n')}\n})` : `await fetch(${url})`;
  const print =
    sample.answer === 'json'
      ? 'console.log(response.status, await response.json());'
      : sample.answer === 'text'
        ? 'console.log(response.status, await response.text());'
        : "console.log(response.status, response.headers.get('location'));";
  return `const response = ${call};\n${print}`;
}

/** A Python 3 snippet with `requests`. */
export function pythonSnippet(sample: HttpSample): string {
  const args = [`    ${JSON.stringify(sample.url)},`];
  if (sample.query.length) args.push(`    params=${pythonPairs(sample.query, '    ')},`);
  if (sample.headers.length) args.push(`    headers=${pythonPairs(sample.headers, '    ')},`);
  if (sample.body?.kind === 'json') args.push(`    json=${pythonLiteral(sample.body.value, '    ')},`);
  else if (sample.body?.kind === 'form') args.push(`    data=${pythonPairs(sample.body.value, '    ')},`);
  if (sample.answer === 'status') args.push('    allow_redirects=False,');
  args.push('    timeout=10,');
  const method = sample.method.toLowerCase();
  const call = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'].includes(method)
    ? `requests.${method}(`
    : `requests.request(\n    ${JSON.stringify(sample.method)},`;
  const print =
    sample.answer === 'json'
      ? 'print(response.status_code, response.json())'
      : sample.answer === 'text'
        ? 'print(response.status_code, response.text)'
        : 'print(response.status_code, response.headers.get("location"))';
  return `import requests\n\nresponse = ${call}\n${args.join('\n')}\n)\n${print}`;
}

/** Every snippet of a sample, by language. */
export function snippetsOf(sample: HttpSample): Record<SnippetLanguage, string> {
  return { curl: curlSnippet(sample), javascript: fetchSnippet(sample), python: pythonSnippet(sample) };
}
