/**
 * English function words, conversational filler ("can you help me…") and the boilerplate of skill
 * descriptions ("use this skill when the user asks…"): words that say nothing about which skill fits.
 */
const STOPWORDS = new Set(
  (
    "a about after all also am an and any are as at be been before being both but by can could did do does " +
    "doing each etc for from had has have having he her here him his how i if in into is it its itself just " +
    "let lets me more most my no nor not of off on once only or other our ours out over own please same she " +
    "should so some such than that the their theirs them then there these they this those through to too " +
    "under until up us very was we were what when where whether which while who whom why will with would " +
    "you your yours yourself ask asks asked skill skills user users want wants wanted need needs needed " +
    "help helps like use used uses using via e g s t ll ve re d m"
  ).split(" "),
);

/**
 * Splits text into search terms: breaks on anything that is not a letter or digit, splits kebab-case,
 * snake_case and camelCase (`parsePDFForms` → parse, pdf, forms), lowercases, drops function words and
 * conversational filler, and reduces inflections to one stem (`analyzes`, `analysing`, `analysis` are
 * not all alike, but `creates`/`created`/`creating`/`creation` → `creat`). The same function runs on
 * skill text and queries, so consistency matters more than linguistic accuracy.
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
    let term = STEMS.get(word);
    if (term === undefined) {
      term = stem(word);
      if (STEMS.size >= MAX_STEMS) STEMS.clear();
      STEMS.set(word, term);
    }
    terms.push(term);
  }
  return terms;
}

/** Stems of words seen before: a vocabulary repeats, and stemming is most of tokenizing's cost. */
const STEMS = new Map<string, string>();
const MAX_STEMS = 100_000;

const HAS_UPPER = /[A-Z]/;
const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_SEPARATORS = /[^a-z0-9]+/;
const UNICODE_SEPARATORS = /[^\p{L}\p{N}]+/u;
const DOUBLED = /([bdfgklmnprt])\1$/;

/** A small suffix stripper in the spirit of Porter's step 1 (plurals, -ed, -ing) plus a few derivations. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|zz)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is|ys)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith("ed") && !w.endsWith("eed")) w = undouble(w.slice(0, -2));
  if (w.length > 6 && w.endsWith("isation")) w = `${w.slice(0, -7)}ize`;
  else if (w.length > 6 && w.endsWith("ization")) w = `${w.slice(0, -7)}ize`;
  else if (w.length > 6 && w.endsWith("ation")) w = `${w.slice(0, -5)}ate`;
  else if (w.length > 6 && w.endsWith("lysis")) w = `${w.slice(0, -3)}z`;
  else if (w.length > 5 && w.endsWith("ise")) w = `${w.slice(0, -3)}ize`;
  else if (w.length > 5 && w.endsWith("ally")) w = w.slice(0, -4);
  else if (w.length > 5 && w.endsWith("ly")) w = w.slice(0, -2);
  // create / created / creating / creation all end up as "creat".
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return DOUBLED.test(w) ? w.slice(0, -1) : w;
}

/**
 * Agent-noun relatives of a stemmed term, for a search to try where its index has them: `review` ↔
 * `reviewer`, `build` ↔ `builder`, `debug` ↔ `debugger`, `generat` ↔ `generator`, `schedul` ↔ `scheduler`.
 * Spelling only: the caller keeps those its vocabulary has.
 */
export function agentForms(term: string): string[] {
  if (term.length < 3 || /\d/.test(term)) return [];
  const base = /(?:er|or)$/.test(term) && term.length >= 6 ? term.slice(0, -2) : undefined;
  if (base !== undefined) return base === undouble(base) ? [base] : [base, undouble(base)];
  const forms = [`${term}er`, `${term}or`];
  if (/[^aeiou][aeiou][bdgmnpt]$/.test(term)) forms.push(`${term}${term.at(-1)}er`);
  return forms;
}
