/**
 * Shared data shapes of the `spec/` module: diagnostics and parsed SKILL.md files.
 * Every other module speaks these types; keep them stable (they are a public interface).
 */

/** Severity of a {@link Diagnostic}. An `error` makes a skill unusable in strict mode. */
export type Severity = "error" | "warning";

/**
 * Stable diagnostic codes. The first group reproduces the agentskills reference validator's checks;
 * the rest are skillrt's own (lenient repairs and discovery problems). Documented in README.md.
 */
export type DiagnosticCode =
  // reference-validator codes
  | "path-not-found"
  | "not-a-directory"
  | "skill-file-missing"
  | "frontmatter-missing"
  | "frontmatter-unclosed"
  | "yaml-invalid"
  | "frontmatter-not-mapping"
  | "name-missing"
  | "name-empty"
  | "name-too-long"
  | "name-not-lowercase"
  | "name-hyphen-edge"
  | "name-consecutive-hyphens"
  | "name-invalid-characters"
  | "name-directory-mismatch"
  | "description-missing"
  | "description-empty"
  | "description-too-long"
  | "compatibility-invalid-type"
  | "compatibility-too-long"
  | "unknown-field"
  // lenient repairs (warnings)
  | "yaml-repaired"
  | "yaml-flow-collection"
  | "bom-stripped"
  | "crlf-normalized"
  | "encoding-invalid"
  | "name-from-directory"
  | "description-from-body"
  | "field-invalid-type"
  | "body-separator"
  | "frontmatter-offset"
  | "duplicate-key"
  | "trigger-pattern-unsupported"
  // discovery and file problems
  | "file-unreadable"
  | "file-binary"
  | "file-too-large"
  | "symlink-broken"
  | "symlink-loop"
  | "watch-polling"
  | "depth-limit"
  | "scan-limit"
  | "name-shadowed"
  | "name-duplicate"
  | "plugin-manifest-invalid"
  | "root-fetch-failed"
  | "root-digest-mismatch"
  | "archive-entry-rejected"

  // requirements (warnings)
  | "requirements-unmet"
  // lock files
  | "lock-drift"
  // agent files
  | "agent-field-ignored";

/** One finding about a skill, in both parsing modes and in discovery. */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** File or directory the finding is about (absolute where known). */
  path: string;
  /** 1-based line in SKILL.md, when the finding points into the file. */
  line?: number;
  /** 1-based column, when known. */
  column?: number;
}

/** `strict` reproduces the agentskills reference validator; `lenient` (default) loads real-world skills. */
export type ParseMode = "strict" | "lenient";

/** Frontmatter value after parsing: every scalar stays a string (YAML failsafe semantics). */
export type FrontmatterValue = string | FrontmatterValue[] | { [key: string]: FrontmatterValue };

/** The usable content of one SKILL.md file. */
export interface ParsedSkill {
  /** Trimmed name as written (not NFKC-normalised); in lenient mode possibly the directory name. */
  name: string;
  /** Trimmed description; in lenient mode possibly the body's first paragraph. */
  description: string;
  license?: string;
  compatibility?: string;
  /** `allowed-tools`, split on whitespace when given as a string, or the list as given. */
  allowedTools?: string[];
  /** `metadata` coerced to string → string. */
  metadata?: Record<string, string>;
  /**
   * `metadata` as written, when one of its values is not a string (a nested map or list): what
   * renderers that show structure (AgentScope's XML, `list --json`) use instead of the coerced strings.
   */
  metadataTree?: Record<string, FrontmatterValue>;
  /** Every top-level key outside the six spec fields, as parsed (e.g. `when_to_use`, `tags`, `active`). */
  extras: Record<string, FrontmatterValue>;
  /** The whole frontmatter mapping as parsed. */
  frontmatter: Record<string, FrontmatterValue>;
  /** The Markdown body, trimmed. Empty when parsed with `headOnly`. */
  body: string;
  /** 1-based line of SKILL.md where the body starts. */
  bodyLine: number;
}

export interface ParseSkillOptions {
  /** Default `lenient`. */
  mode?: ParseMode;
  /** Name of the directory holding SKILL.md: checked against `name`, and the lenient fallback name. */
  dirName?: string;
  /** Path reported in diagnostics. Default `SKILL.md`. */
  path?: string;
  /**
   * Stop after the frontmatter: `body` is returned empty and the body is not scanned (no
   * `body-separator` warnings), though a lenient `description-from-body` fallback still reads the text
   * given. For catalog start-up, where only L1 data is needed. Default `false`.
   */
  headOnly?: boolean;
}

export interface ParseSkillResult {
  /**
   * Undefined when nothing usable is left. In strict mode the skill is still returned whenever name and
   * description could be read; whether it is valid is what `diagnostics` says (any `error`).
   */
  skill: ParsedSkill | undefined;
  diagnostics: Diagnostic[];
}
