import { tokenize } from "./tokenize.js";

/**
 * Everyday multi-word phrasings of a task and the words skill descriptions use for it: "look over my
 * changes" asks for a review, "speed up" for performance work, "bounce around ideas" for a brainstorm.
 * Most of these phrases are made of stopwords and particles that tokenizing drops ("over", "up", "out"),
 * so without this table a request phrased this way loses its intent. Each line: the phrases (separated by
 * `|`, matched as whole words, case and punctuation aside), then `=>`, then the words they add to the query.
 * General vocabulary only — no skill names.
 */
const IDIOMS = [
  "look over|go over|look through|second pair of eyes|another pair of eyes => review feedback",
  "double check|double-check|sanity check|make sure it works|prove it works|show me it works|show me it passes => verify verification check",
  "bounce ideas|bounce around|kick around|throw around ideas|come up with ideas|spitball => brainstorm ideas",
  "figure out why|track down|get to the bottom|root cause|why does it keep => debug investigate",
  "speed up|too slow|takes forever|make it faster => performance optimize",
  "clean up|tidy up => cleanup refactor organize",
  "write up|jot down|write down => document notes",
  "sum up|boil down|tl;dr|tldr|catch me up|catch up on => summary summarize",
  "roll back|revert back => rollback revert",
  "break down|break it down|split up into => decompose tasks plan",
  "keep track of|keep an eye on|keep tabs on => track monitor",
  "log in|sign in => login authentication",
  "sign up => signup registration",
  "look up|dig up|find out => search research",
  "turn into|turn this into|turn it into|make it into => convert",
  "hand off|hand over => handoff",
  "pick up where|left off => resume continue",
  "reach out to => outreach contact",
  "follow up => follow-up",
  "go live|push to prod|ship it => deploy release",
  "hook up|wire up|plug into|hook into => integrate integration",
  "try out => test",
  "put together => create build",
  "cut down|trim down|cut back => reduce",
  "get rid of|rip out => remove",
  "back up => backup",
  "lock down => security harden",
  "walk me through|walk through => guide explain",
  "from scratch => new create",
  "out of date|up to date => update",
  "in the background => background async",
];

/** Lowercase words separated by single spaces: how phrases and requests are compared. */
function words(text: string): string {
  const spaced = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
  return ` ${spaced} `;
}

/** Phrase → the stemmed terms it adds, compiled on the first search. */
let compiled: readonly { phrases: readonly string[]; terms: readonly string[] }[] | undefined;

function compileIdioms(): readonly { phrases: readonly string[]; terms: readonly string[] }[] {
  return IDIOMS.map((line) => {
    const [phrases, added] = line.split("=>");
    return { phrases: phrases!.split("|").map(words), terms: [...new Set(tokenize(added!))] };
  });
}

/**
 * The stemmed terms that the everyday phrasings in `query` stand for ({@link IDIOMS}), without repeats;
 * empty when it has none. A search adds them to the query at reduced weight.
 */
export function idiomTerms(query: string): string[] {
  const text = words(query);
  const out = new Set<string>();
  compiled ??= compileIdioms();
  for (const { phrases, terms } of compiled) {
    if (phrases.some((phrase) => text.includes(phrase))) for (const term of terms) out.add(term);
  }
  return [...out];
}
