// Type declaration for the untyped CommonJS package `wink-porter2-stemmer` (its `module.exports` is the stem function).
declare module 'wink-porter2-stemmer' {
  /** Porter2 (Snowball English) stem of a lowercase word; words shorter than 3 letters come back unchanged. */
  export default function stem(word: string): string;
}
