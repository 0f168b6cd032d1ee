/**
 * trpc-agent-go's guidance blocks after the skill overview (`internal/flow/processor/skills.go`, texts
 * verbatim): `Skill tool availability:` when neither a load nor a run tool is registered, and `Tooling and
 * workspace guidance:` with one text per tool set (catalog only, doc helpers only, knowledge only, full
 * execution). Each block starts with a newline and ends with one, as trpc appends them to the overview.
 */

/** Which of trpc's skill tools are registered (`skillprofile.Flags`). */
export interface TrpcToolFlags {
  load: boolean;
  selectDocs: boolean;
  listDocs: boolean;
  run: boolean;
  /** `skill_exec` and its session tools. */
  exec: boolean;
}

/** The header trpc gives the capability block. */
export const TRPC_CAPABILITY_HEADER = "Skill tool availability:";
/** The header trpc gives the tooling block. */
export const TRPC_TOOLING_HEADER = "Tooling and workspace guidance:";

const docHelpers = (f: TrpcToolFlags): boolean => f.listDocs || f.selectDocs;

/** `Skill tool availability:` (only when no load and no run tool), else `""`. */
export function trpcCapabilityGuidance(f: TrpcToolFlags): string {
  if (f.run || f.load) return "";
  if (docHelpers(f)) {
    return `\n${TRPC_CAPABILITY_HEADER}\n${[
      "- This configuration supports skill discovery and skill doc inspection only.",
      "- Built-in skill loading and execution tools are unavailable in the current mode.",
      "- Listing or selecting docs does not inject SKILL.md or doc contents into model context by itself.",
    ].join("\n")}\n`;
  }
  return `\n${TRPC_CAPABILITY_HEADER}\n${[
    "- This configuration exposes skill summaries only. Built-in skill tools are unavailable in the current mode.",
    "- Treat the skill overview as a catalog of possible capabilities. Use other registered tools, or explain the limitation clearly when the task depends on skill loading or execution.",
  ].join("\n")}\n`;
}

/** `Tooling and workspace guidance:` for the registered tool set. */
export function trpcToolingGuidance(f: TrpcToolFlags): string {
  const offersSkillTools = f.load || f.selectDocs || f.listDocs || f.run || f.exec;
  let lines: string[];
  if (!offersSkillTools) lines = catalogOnly();
  else if (!f.run) lines = f.load ? knowledgeOnly(f) : docHelpers(f) ? docHelpersOnly(f) : catalogOnly();
  else lines = full(f);
  return `\n${TRPC_TOOLING_HEADER}\n${lines.join("\n")}\n`;
}

function catalogOnly(): string[] {
  return [
    "- Use the skill overview as a catalog only. Built-in skill tools are unavailable in this configuration; if a task depends on loading or executing a skill, use other registered tools or explain the limitation clearly.",
  ];
}

function knowledge(f: TrpcToolFlags): string[] {
  if (!f.load) return [];
  const helper =
    f.listDocs && f.selectDocs
      ? "- Use the available doc listing and selection helpers only after skill_load, and only when SKILL.md hints at auxiliary docs you still need; if SKILL.md alone is enough, do not call them."
      : f.listDocs
        ? "- Use the available doc listing helper to discover doc names only after skill_load, and only when SKILL.md hints at auxiliary docs you still need; if SKILL.md alone is enough, do not call it."
        : f.selectDocs
          ? "- If doc names are already known, use the available doc selection helper to keep loaded docs targeted; do not call it before SKILL.md is loaded."
          : "- If you need docs, request them directly with skill_load.docs or include_all_docs.";
  return [
    "- Beyond SKILL.md itself, extra docs are loaded only on demand. SKILL.md is the entry point and usually references any auxiliary docs that exist, so do not probe for docs before reading SKILL.md and do not treat an empty doc list as a reason to skip skill_load.",
    helper,
    "- When one skill is clearly relevant, prefer loading it before repeating the same domain workflow from scratch.",
    "- Avoid include_all_docs unless the user asks or the task genuinely needs the full doc set.",
  ];
}

function knowledgeOnly(f: TrpcToolFlags): string[] {
  return [
    "- Use skills for progressive disclosure only: load SKILL.md first with skill_load, then inspect only the documentation needed for the current task. The catalog overview elsewhere in this prompt is a routing summary; do not infer commands, script entrypoints, or resource layouts from it.",
    "- Before doing anything attributed to a skill, call skill_load for that skill so the full SKILL.md is in context.",
    "- Prefer loading one plausible skill early over re-reading the same task pattern and repeating the same domain tool calls without new information.",
    ...knowledge(f),
    "- skill_load returns instructions and bundled resources but does not execute the skill by itself. If the loaded SKILL.md describes shell commands or scripts and a shell-execution tool such as workspace_exec is registered for this agent, invoke that tool to actually run the steps. If no execution tool is registered, treat the loaded content as reference and explain the limitation clearly.",
  ];
}

function docHelpersOnly(f: TrpcToolFlags): string[] {
  const first =
    f.listDocs && f.selectDocs
      ? "- Use skills only to inspect available doc names or adjust doc selection state."
      : f.listDocs
        ? "- Use skills only to inspect available doc names."
        : "- Use skills only to adjust doc selection when doc names are already known.";
  return [
    first,
    "- Built-in skill loading is unavailable, so doc helpers do not inject SKILL.md or doc contents into context; if the task needs loaded content or execution, use other registered tools or explain the limitation clearly.",
  ];
}

function full(f: TrpcToolFlags): string[] {
  const lines = [
    "- Skills run inside an isolated workspace; you see only files that are in the workspace or have been staged there by tools.",
    "- skill_run runs with CWD at the skill root by default; avoid setting cwd unless needed.",
    "- If you set cwd, use $SKILLS_DIR/$SKILL_NAME (or a subdir). $SKILLS_DIR alone is the parent dir.",
    "- Prefer $WORK_DIR, $OUTPUT_DIR, $RUN_DIR, and $WORKSPACE_DIR over hard-coded paths.",
    "- Treat $WORK_DIR/inputs (and a skill's inputs/ directory) as the place where tools stage user or host input files. Avoid overwriting or mutating these inputs directly.",
    "- User-uploaded file inputs in the conversation are automatically staged into $WORK_DIR/inputs when skill_run executes.",
    "- When the user mentions external files, directories, artifacts, or URLs, decide whether to stage them into $WORK_DIR/inputs via available tools before reading.",
    "- To map external files into the workspace, use skill_run inputs (artifact://, host://, workspace://, skill://). For artifacts, prefer artifact://name@version; inputs[*].pin=true reuses the first resolved version (best effort).",
    "- Prefer writing new files under $OUTPUT_DIR or a skill's out/ directory and include output_files globs (or an outputs spec) so files can be collected or saved as artifacts.",
    "- Use stdout/stderr for logs or short status text. If the model needs large or structured text, write it to files under $OUTPUT_DIR and return it via output_files or outputs.",
    "- For Python skills that need third-party packages, create a virtualenv under the skill's .venv/ directory (it is writable inside the workspace).",
    "- output_files entries are workspace paths/globs (e.g. out/*.txt). Do not use workspace:// or artifact:// in output_files.",
    "- When skill_run returns primary_output or output_files, prefer using the inline content directly. If you need a stable reference for other tools, use output_files[*].ref (workspace://...).",
    "- Non-text outputs never inline content. Use output_files[*].ref (workspace://...) to pass them to other tools. For large text outputs, set omit_inline_content=true so output_files return metadata only, then use output_files[*].ref with read_file when needed. For persistence, prefer outputs.save=true with outputs.inline=false; if you use output_files, set save_as_artifacts=true.",
    "- Do not rerun the same skill_run command when you already have the needed content.",
    "- If you already have the needed file content, stop calling file tools and answer.",
    "- When chaining multiple skills, read previous results from $OUTPUT_DIR (or a skill's out/ directory) instead of copying them back into inputs directories.",
  ];
  if (f.load) {
    lines.push(
      "- Treat loaded skill docs as guidance, not perfect truth; when runtime help or stderr disagrees, trust observed runtime behavior.",
      "- Loading a skill gives you instructions and bundled resources; it does not execute the skill by itself.",
      "- The skill summaries above are routing summaries only; they do not replace SKILL.md or other loaded docs.",
      "- If the loaded content already provides enough guidance to answer or produce the requested result, respond directly.",
      `- If you decide to use a skill, load SKILL.md before ${f.exec ? "the first skill_run or skill_exec for that skill, " : "the first skill_run for that skill, "}then load only the docs you still need.`,
      "- Do not infer commands, script entrypoints, or resource layouts from the short summary alone.",
      ...knowledge(f),
    );
  } else if (docHelpers(f)) {
    lines.push(
      "- Built-in skill loading is unavailable in this configuration. Doc listing or selection helpers can inspect doc names or selection state, but they do not inject SKILL.md or doc contents into context.",
    );
  } else {
    lines.push(
      "- Built-in skill loading is unavailable in this configuration; do not assume SKILL.md or doc contents are in context.",
    );
  }
  lines.push(
    "- Use execution tools only when running a command will reveal or produce information or files you still need.",
    f.exec
      ? "- Use skill_exec only when a command needs incremental stdin or TTY-style interaction; otherwise prefer one-shot execution."
      : "- Do not assume interactive execution is available when only one-shot execution tools are present.",
    "- skill_run is a command runner inside the skill workspace, not a magic capability. It does not install dependencies or add the skill root itself to PATH. Executables under bin/ are available as bare commands after .venv/bin and the inherited PATH; invoke other scripts via an explicit interpreter and path (e.g., python3 scripts/foo.py).",
    `- When you execute, follow the tool description, ${f.load ? "loaded skill docs, " : ""}bundled scripts, and observed runtime behavior rather than inventing shell syntax or command arguments.`,
  );
  return lines;
}
