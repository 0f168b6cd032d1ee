/**
 * trpc-agent-go's layout of loaded content in the system prompt (`internal/flow/processor/skills.go`): per
 * loaded skill, alphabetically, `[Loaded] <name>` and the body (left out when the body is empty), a
 * `Docs loaded: …` line, then one `[Doc] <path>` block per selected doc (empty docs left out).
 *
 * trpc starts each block with a newline; here the separating newline ends the previous block instead, so
 * every block starts with a visible character and ends with a newline. That keeps token counts additive
 * (the ledger's total equals the tokens of the rendered prompt) at the cost of trpc's exact blank lines.
 */

/** A loaded skill: `[Loaded] <name>\n\n<body>\n`, or `""` for an empty body. */
export function renderTrpcSkill(name: string, body: string): string {
  return body === "" ? "" : `[Loaded] ${name}\n\n${body}\n`;
}

/** The selection summary after a skill: `Docs loaded: none` or `Docs loaded: a.md, b.md`, then a blank line. */
export function renderTrpcDocsLine(docs: readonly string[]): string {
  return `Docs loaded: ${docs.length === 0 ? "none" : docs.join(", ")}\n\n`;
}

/** A selected doc: `[Doc] <path>\n\n<content>\n\n`, or `""` for an empty doc. */
export function renderTrpcDoc(path: string, content: string): string {
  const trimmed = content.trimEnd();
  return trimmed === "" ? "" : `[Doc] ${path}\n\n${trimmed}\n\n`;
}
