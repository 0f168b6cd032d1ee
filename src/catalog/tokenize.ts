const STOPWORDS = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "for",
  "from",
  "in",
  "into",
  "is",
  "it",
  "of",
  "on",
  "or",
  "the",
  "this",
  "that",
  "to",
  "with",
]);

/**
 * Splits text into search terms: breaks on anything that is not a letter or digit, splits kebab-case,
 * snake_case and camelCase (`parsePDFForms` → parse, pdf, forms), lowercases, drops a few English
 * function words and strips common plural and verb endings so that `analyzes` matches `analyze`.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  const spaced = (
    HAS_UPPER.test(text)
      ? text.replace(/([a-z\d])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
      : text
  ).toLowerCase();
  for (const word of spaced.split(NON_ASCII.test(spaced) ? UNICODE_SEPARATORS : ASCII_SEPARATORS)) {
    if (word === "" || STOPWORDS.has(word)) continue;
    terms.push(stem(word));
  }
  return terms;
}

const HAS_UPPER = /[A-Z]/;
const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_SEPARATORS = /[^a-z0-9]+/;
const UNICODE_SEPARATORS = /[^\p{L}\p{N}]+/u;

/** A deliberately small suffix stripper: consistent on both sides of the index is what matters. */
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 4 && /(?:ch|sh|x|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  // create / created / creating all end up as "creat".
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}
