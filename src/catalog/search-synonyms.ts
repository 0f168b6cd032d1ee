import { tokenize } from "./tokenize.js";

/**
 * How people ask versus how skills describe themselves: each line lists words used for one idea, first
 * the everyday words, then the words skill descriptions tend to use. A query word found here also looks
 * for the other words of its line (at reduced weight). General vocabulary only — no skill names.
 */
const GROUPS = [
  "slides slide deck presentation pptx powerpoint keynote",
  "spreadsheet workbook sheet excel xlsx csv cells formulas",
  "word doc document docx",
  "pdf pdfs acrobat",
  "bug bugs broken crash crashes failing failure error errors debug debugging troubleshoot diagnose",
  "flaky intermittent sometimes",
  "cv resume",
  "job position posting role hiring recruiting recruit",
  "picture photo image screenshot png jpg jpeg",
  "blurry sharpen upscale enhance quality resolution",
  "video clip mp4 footage",
  "audio sound voice speech mp3",
  "diagram chart flowchart schematic figure visualization",
  "plot graph chart visualization",
  "test tests testing spec specs unit e2e",
  "review feedback critique comments",
  "pr pull merge request",
  "commit commits staged git",
  "deploy deployment ship release hosting publish",
  "cost costs bill billing spend spending expensive budget",
  "cheaper reduce save optimize",
  "slow faster speed performance latency optimize",
  "secure security vulnerability vulnerabilities exploit pentest penetration hack hacking audit",
  "login auth authentication signin password session",
  "payment payments checkout subscription subscriptions billing",
  "email emails mail inbox outreach newsletter",
  "tweet tweets twitter x thread",
  "post posts linkedin social",
  "calendar meeting meetings schedule event invite",
  "notes minutes transcript transcripts",
  "folder folders files directory organize organise sort tidy mess cleanup",
  "receipt receipts invoice invoices expenses tax accounting bookkeeping",
  "customers leads prospects prospecting sales crm",
  "ad ads advertising campaign campaigns creative",
  "paper manuscript article journal publication research scientific",
  "references bibliography citations citation cite",
  "idea ideas brainstorm brainstorming ideation explore",
  "plan plans planning roadmap steps implementation",
  "docs documentation readme guide manual",
  "api apis endpoint endpoints rest",
  "database db sql query queries postgres mysql",
  "container containers docker dockerfile image",
  "kubernetes k8s cluster helm manifests pods",
  "ci pipeline pipelines workflow workflows actions",
  "translate translation translations localization localize i18n",
  "accessibility accessible a11y wcag screen reader contrast",
  "website site webpage web page pages",
  "app application apps",
  "mobile ios android phone",
  "scrape scraping crawl crawling extract extraction",
  "summary summarize summarise tldr",
  "write writing draft drafting compose copy copywriting",
  "convert conversion transform export",
  "animation animations animate motion transitions",
  "font fonts typography colors colours palette theme branding brand",
  "machine ml model models training train",
  "finetune fine-tune fine tuning",
  "llm llms gpt openai claude prompt prompts ai",
  "agent agents subagent subagents autonomous",
  "trace traces tracing observability monitoring logs",
  "incident outage postmortem downtime",
  "regression statistics statistical",
  "gene genes genomic genomics sequencing rna dna",
  "molecule molecules compound compounds chemistry smiles drug",
  "protein proteins",
  "map maps geospatial gis spatial",
  "game games gaming",
  "song songs music playlist",
  "contract contracts legal agreement terms policy",
  "launch launching announcement gtm go-to-market",
  "price pricing monetization",
  "investor investors board fundraising",
  "onboarding onboard",
  "upgrade upgrading migrate migration update modernize",
  "winner giveaway raffle lottery",
  "domain domains name names",
  "schedule scheduled cron recurring",
  "chat chatbot bot bots conversational",
];

let built: Map<string, string[]> | undefined;

/**
 * Stemmed term → the other stemmed terms of its groups; built on the first search (tokenizing every
 * group is most of what loading the catalog's module would otherwise cost a command that never searches).
 */
export const SYNONYMS: Pick<ReadonlyMap<string, readonly string[]>, "get"> = {
  get: (term) => {
    built ??= buildSynonyms(GROUPS);
    return built.get(term);
  },
};

function buildSynonyms(groups: readonly string[]): Map<string, string[]> {
  const map = new Map<string, Set<string>>();
  for (const group of groups) {
    const terms = [...new Set(group.split(" ").flatMap((word) => tokenize(word)))];
    for (const term of terms) {
      let set = map.get(term);
      if (set === undefined) {
        set = new Set();
        map.set(term, set);
      }
      for (const other of terms) if (other !== term) set.add(other);
    }
  }
  return new Map([...map].map(([term, set]) => [term, [...set]]));
}
