/**
 * Workaround: `http-message-sig` 0.2 (Cloudflare's, under `web-bot-auth`) verifies a message that
 * carries exactly one signature. Its `verify` parses the `Signature` field with
 * `/^([\w-]+)=:([A-Za-z0-9+/=]+):$/` and builds `@signature-params` from everything after the first
 * label of `Signature-Input`, so a directory signed by two keys (`binding0=…, binding1=…`, what
 * its own `directoryResponseHeaders` writes during a key rotation) never verifies.
 * Upstream: cloudflare/web-bot-auth, packages/http-message-sig/src/verify.ts and parse.ts.
 *
 * This module splits both fields into their dictionary members (RFC 9651 §3.2) so each signature
 * can be verified on its own, keeping each member's exact text: the signature base quotes it.
 * Remove it when `verify` handles several signatures.
 * @module
 */

/** The top-level members of a Dictionary field value, as written (commas inside strings, inner lists or byte sequences do not split). */
export function dictionaryMembers(value: string): string[] {
  const members: string[] = [];
  let depth = 0;
  let quoted = false;
  let bytes = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (bytes) {
      if (c === ':') bytes = false;
    } else if (c === '"') quoted = true;
    else if (c === ':') bytes = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      members.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  members.push(value.slice(start).trim());
  return members.filter(Boolean);
}

/** A member's label (its dictionary key). */
const labelOf = (member: string): string => /^([a-z*][a-z0-9_.*-]*)=/.exec(member)?.[1] ?? '';

/** One signature: its label and the single-member `Signature-Input` and `Signature` values. */
export interface OneSignature {
  label: string;
  signatureInput: string;
  signature: string | undefined;
}

/** Pairs every `Signature-Input` member with the `Signature` member of the same label. */
export function splitSignatures(signatureInput: string, signature: string): OneSignature[] {
  const values = new Map(dictionaryMembers(signature).map((m) => [labelOf(m), m] as const));
  return dictionaryMembers(signatureInput).map((member) => ({
    label: labelOf(member),
    signatureInput: member,
    signature: values.get(labelOf(member)),
  }));
}
